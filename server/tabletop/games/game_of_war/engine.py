"""A Game of War behind the engine contract. Rules: ``game-of-war`` (all sections)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from tabletop.core.errors import BadOptions, GameOver, IllegalMove, NotYourTurn
from tabletop.core.game import ChanceOutcome, ChancePreview, Engine, LegalMoves, MoveGroup, MoveOption, Outcome, Trial
from tabletop.core.rng import Rng, fresh_seed
from tabletop.core.text import factor
from tabletop.render import Scene

from . import analysis, display
from .actions import ACTION_ADAPTER, Action, Commit
from .board import SIDE_NAMES, parse_square, square_name
from .combat import Combat, assess
from .foresight import Cut, cut_marks, cut_sentence, dry_run_board, move_cuts
from .notation import HELP, action_of, action_text, parse_play, play_of, play_text
from .options import GameOfWarOptions
from .picture import draw_board
from .referee import check_play
from .rules import ATTACK, END, MOVE, attack_options, legal_plays, play
from .setup import (
    COMMIT,
    OPENING,
    PLACE,
    REMOVE,
    apply_setup_play,
    begin_play,
    check_setup_play,
    deploy_opening,
    setup_plays,
)
from .state import OVER, PLAY, SETUP, State, empty_state
from .units import KIND_BY_LETTER, KIND_BY_NAME, STATS, is_relay

SETUP_KINDS = frozenset({PLACE, REMOVE, OPENING, COMMIT})


class GameOfWarEngine(Engine[State, Action]):
    """Debord's A Game of War: two sides, lines of communication, combat by summed lines."""

    name = "game-of-war"
    title = "A Game of War"
    summary = (
        "Guy Debord's two-player war game on a 25x20 board. Each side keeps its units in "
        "communication with its arsenals through lines and relays; units out of communication "
        "cannot move, attack or defend. Each turn: move up to five units, then one attack, "
        "decided by adding up attack and defence along the eight lines through the target. "
        "Win by destroying both enemy arsenals, all enemy combat units, or both relays with the "
        "rest cut off."
    )
    min_seats = 2
    max_seats = 2
    options_model = GameOfWarOptions
    action_adapter = ACTION_ADAPTER
    notation_help = HELP
    factor_separators = " -"

    # ---- creating and reading a game ---------------------------------------------------
    def new_game(self, options: BaseModel, seats: int, seed: int, names: list[str] | None = None) -> State:
        if seats != 2:
            raise BadOptions(f"A Game of War is for exactly 2 seats, not {seats}", rule="game-of-war/overview")
        opts = options if isinstance(options, GameOfWarOptions) else self.read_options(options.model_dump())
        state = empty_state(opts, seed)
        if opts.opening:
            for side in (0, 1):
                deploy_opening(state, side, opts.opening)
            begin_play(state, [])
            state.refresh_network()
        return state

    def seat_count(self, state: State) -> int:
        return 2

    def seat_roles(self, state: State) -> list[str]:
        return list(SIDE_NAMES)

    def to_move(self, state: State) -> list[int]:
        if state.phase == SETUP:
            return [side for side in (0, 1) if not state.committed[side]]
        return [state.side] if state.phase == PLAY else []

    def plays(self, state: State, seat: int) -> list[tuple]:
        """Legal plays of ``seat`` as tuples (the fast form used by bots and benchmarks)."""
        if state.phase == SETUP:
            return setup_plays(state, seat) if seat in (0, 1) else []
        return legal_plays(state) if state.phase == PLAY and seat == state.side else []

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        return [action_of(p, state) for p in self.plays(state, seat)]

    def apply(self, state: State, seat: int, action: Action) -> tuple[State, list[str]]:
        if state.phase == OVER:
            raise GameOver(f"The game is over. {state.reason}", rule="game-of-war/end")
        if seat not in self.to_move(state):
            waiting = " and ".join(SIDE_NAMES[s] for s in self.to_move(state))
            message = f"It is not {self._seat_name(seat)}'s turn; waiting for {waiting}"
            raise NotYourTurn(message, rule="game-of-war/turn")
        wanted = play_of(action)
        if state.phase == SETUP:
            if wanted[0] not in SETUP_KINDS:
                raise IllegalMove(
                    "The game is still in set-up: place, remove, opening or commit",
                    rule="game-of-war/setup",
                    legal=[play_text(p, state) for p in self.plays(state, seat)],
                )
            check_setup_play(state, seat, wanted)
            new, events = apply_setup_play(state, seat, wanted)
        else:
            if wanted[0] in SETUP_KINDS:
                raise IllegalMove(
                    "Set-up is over: move, attack or end",
                    rule="game-of-war/turn",
                    legal=[play_text(p, state) for p in legal_plays(state)],
                )
            check_play(state, wanted, lambda plays: [play_text(p, state) for p in plays])
            new, events = play(state, wanted[:3])
        new.record(seat, action)
        return new, events

    def chance_preview(self, state: State, seat: int, action: Action) -> ChancePreview:
        """The last commit reveals both deployments and rolls for the first player (game-of-war/setup)."""
        fixed = state.options.first_player
        if fixed != "die":
            return ChancePreview(
                summary=f"Committing last reveals both deployments, which stay hidden until it is played; "
                f"{SIDE_NAMES[0 if fixed == 'north' else 1]} then moves first.",
            )
        return ChancePreview(
            summary="Committing last reveals both deployments; a die then decides who moves first (North on 1-3, "
            "South on 4-6).",
            outcomes=[
                ChanceOutcome(result=f"{SIDE_NAMES[0]} moves first", probability=0.5),
                ChanceOutcome(result=f"{SIDE_NAMES[1]} moves first", probability=0.5),
            ],
        )

    def outcome(self, state: State) -> Outcome | None:
        if state.phase != OVER:
            return None
        winners = [] if state.winner is None else [state.winner]
        return Outcome(winners=winners, reason=state.reason)

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return display.view(state, seat)

    overlay_names = ("lines",)

    def draw(self, state: State, seat: int | None, overlays: frozenset[str], names: list[str] | None = None) -> Scene:
        """The board as ``seat`` may see it; the ``lines`` overlay marks each side's covered squares."""
        return draw_board(state, seat, "lines" in overlays, names)

    def secret_phase(self, state: State) -> bool:
        """The set-up: each side deploys in secret (game-of-war/setup)."""
        return state.phase == SETUP

    def move_visible(self, state: State, mover: int, viewer: int | None) -> bool:
        """Deployment moves stay secret from the other seat until both sides have committed (game-of-war/setup)."""
        return state.phase != SETUP or mover == viewer

    def describe(self, state: State, seat: int | None) -> str:
        return display.describe(state, seat)

    def status(self, state: State, seat: int) -> str:
        """The status line; during the deployment, what ``seat`` has still to place (game-of-war/setup)."""
        if state.phase == SETUP and seat in (0, 1):
            return display.setup_status(state, seat)
        return display.status_line(state)

    def notation(self, action: Action) -> str:
        return action_text(action)

    def parse(self, text: str, state: State, seat: int) -> Action:
        return action_of(parse_play(text))

    def _seat_name(self, seat: int) -> str:
        return SIDE_NAMES[seat] if seat in (0, 1) else f"seat {seat}"

    # ---- reading aids ------------------------------------------------------------------
    def summarize(self, action: Action, state: State) -> str:
        wanted = play_of(action)
        if wanted[0] == MOVE and wanted[1] in state.pieces:
            cut = None
            if state.phase == PLAY and state.pieces[wanted[1]] >> 3 == state.side:
                cut = move_cuts(state, [(wanted[1], wanted[2])]).get((wanted[1], wanted[2]))
            return _move_summary(state, wanted[1], wanted[2], cut)
        if wanted[0] == ATTACK and wanted[1] in state.pieces:
            return _attack_summary(state, assess(state, wanted[1]))
        return {END: "End the turn.", COMMIT: "Fix your deployment."}.get(wanted[0], action_text(action))

    def legal_moves(self, state: State, seat: int, focus: str | None = None) -> LegalMoves:
        if state.phase == SETUP:
            return _setup_moves(state, seat, focus)
        if state.phase != PLAY or seat != state.side:
            return LegalMoves(groups=[], note=display.status_line(state))
        return _play_moves(state, focus)

    def legal_notations(self, state: State, seat: int) -> list[str]:
        """The legal moves for a refusal, without the marks on moves that cut the mover's own line (they list no
        move of their own)."""
        lines: list[str] = []
        for group in self.legal_moves(state, seat).groups:
            if group.moves:
                lines += group.brief or factor((m.notation for m in group.moves), self.factor_separators)
        return lines

    def consequences(self, before: State, after: State, seat: int) -> list[str]:
        """A dry run's board: changed squares, the seat's units cut off or still offline, enemy units cut off, what
        was destroyed (game-of-war/communication, game-of-war/combat); during the deployment, its own squares only
        (game-of-war/setup)."""
        return dry_run_board(before, after, seat)

    def try_action(self, state: State, seat: int, action: Action) -> Trial[State]:
        """A dry run; the commit that ends the secret deployment is answered like a move of chance, without the
        position after it, whatever decides the first player: that position shows the other side's deployment,
        which stays secret until the commit is really played (game-of-war/setup)."""
        if state.phase == SETUP and isinstance(action, Commit) and seat in (0, 1) and state.committed[1 - seat]:
            self.apply(self.with_generator(state, Rng(fresh_seed())), seat, action)  # refused exactly as when played
            return Trial(True, None, [], self.chance_preview(state, seat, action))
        return super().try_action(state, seat, action)

    def network_status(self, state: State) -> analysis.NetworkStatus:
        return analysis.network_status(state)

    def combat_preview(self, state: State, square: str) -> analysis.CombatPreview:
        return analysis.combat_preview(state, square)


# ---- legal_moves helpers -------------------------------------------------------------------
def _option(play_: tuple, state: State, summary: str) -> MoveOption:
    action = action_of(play_, state).model_dump(mode="json")
    return MoveOption(notation=play_text(play_, state), action=action, summary=summary)


def _unit_label(state: State, sq: int) -> str:
    code = state.pieces[sq]
    status = "online" if state.network.online[code >> 3] >> sq & 1 else "offline"
    return f"{STATS[code & 7].title} {square_name(sq)} ({status})"


def _move_summary(state: State, origin: int, destination: int, cut: Cut | None = None) -> str:
    """A move in words; ``cut``: the mover's units it leaves offline, said at the end (game-of-war/communication)."""
    code = state.pieces[origin]
    text = f"{STATS[code & 7].title} {square_name(origin)} to {square_name(destination)}"
    enemy = 1 - (code >> 3)
    if state.arsenals[enemy] >> destination & 1:
        text += f", destroying {SIDE_NAMES[enemy]}'s arsenal (uses the turn's attack)"
    if origin == state.retreat:
        text += " (the forced retreat)"
    return text + "." + (cut_sentence(state, cut, is_relay(code & 7)) if cut else "")


def _attack_summary(state: State, combat: Combat) -> str:
    code = state.pieces[combat.target]
    return (
        f"Attack {SIDE_NAMES[code >> 3]} {STATS[code & 7].title.lower()} {square_name(combat.target)}: "
        f"{combat.attack} against {combat.defence}, {combat.result}."
    )


def _kind_named(text: str) -> int | None:
    """A unit kind from its letter or name ("C", "cavalry", "swift cannon"), else None."""
    return KIND_BY_LETTER.get(text.upper(), KIND_BY_NAME.get(text.lower().replace(" ", "_")))


def _focus_filter(state: State, focus: str | None):
    """``(mover_ok, target_ok)`` predicates on squares from ``focus``: None (everything), a
    square (the unit there, or an attack on it), a unit letter or name (your units of that
    kind, no attacks) or "attacks" (attacks only)."""
    if not focus:
        return (lambda sq: True), (lambda sq: True)
    text = focus.strip()
    if text.lower() in ("attack", "attacks"):
        return (lambda sq: False), (lambda sq: True)
    square = parse_square(text)
    if square is not None:
        return (lambda sq: sq == square), (lambda sq: sq == square)
    kind = _kind_named(text)
    return (lambda sq: kind is not None and state.pieces[sq] & 7 == kind), (lambda sq: False)


def _play_moves(state: State, focus: str | None) -> LegalMoves:
    """Moves by unit, then marks on the moves that cut the mover's own line, the attacks and the end of the turn."""
    mover_ok, target_ok = _focus_filter(state, focus)
    plays = legal_plays(state)
    moves = [p for p in plays if p[0] == MOVE and mover_ok(p[1])]
    cuts = move_cuts(state, [(p[1], p[2]) for p in moves])
    by_unit: dict[int, list[MoveOption]] = {}
    said: dict[tuple[Cut, bool], str] = {}  # many moves cut the same units off: each sentence is written once
    for p in moves:
        summary = _move_summary(state, p[1], p[2])
        cut = cuts.get((p[1], p[2]))
        if cut:
            key = (cut, is_relay(state.pieces[p[1]] & 7))
            if key not in said:
                said[key] = cut_sentence(state, *key)
            summary += said[key]
        by_unit.setdefault(p[1], []).append(_option(p, state, summary))
    groups = [MoveGroup(title=_unit_label(state, sq), moves=options, show_title=False) for sq, options in by_unit.items()]
    if cuts:
        title = (
            f"Moves that cut your own line ({len(cuts)}): they leave units of yours offline that are online now; "
            "each one's summary says which"
        )
        groups.append(MoveGroup(title=title, moves=[], show_title=False, brief=cut_marks(state, cuts)))
    combats = [c for c in attack_options(state) if target_ok(c.target)]
    if combats:
        attacks = [_option((ATTACK, c.target), state, _attack_summary(state, c)) for c in combats]
        brief = [f"attack {square_name(c.target)} ({c.attack} v {c.defence}: {c.result})" for c in combats]
        groups.append(MoveGroup(title="Attacks (one per turn; an attack ends the turn)", moves=attacks, brief=brief))
    if (END,) in plays and not focus:
        groups.append(MoveGroup(title="Turn", moves=[_option((END,), state, "End the turn.")], show_title=False))
    return LegalMoves(groups=groups, note=display.status_line(state))


def _setup_moves(state: State, seat: int, focus: str | None) -> LegalMoves:
    plays = setup_plays(state, seat) if seat in (0, 1) else []
    if not plays:
        waiting = "Deployment committed; waiting for the other side." if seat in (0, 1) else None
        return LegalMoves(groups=[], note=waiting)
    mover_ok, _ = _focus_filter(state, focus)
    place_sq = parse_square(focus) if focus else None
    place_kind = _kind_named(focus.strip()) if focus else None
    groups: dict[str, list[MoveOption]] = {}
    for p in plays:
        if p[0] == PLACE:
            if focus and (p[1] == place_kind or p[2] == place_sq):
                unit = STATS[p[1]].title.lower()
                summary = f"Place a {unit} on {square_name(p[2])}."
                groups.setdefault(f"Place {unit}", []).append(_option(p, state, summary))
        elif p[0] == REMOVE:
            if mover_ok(p[1]):
                unit = STATS[state.pieces[p[1]] & 7]
                summary = f"Take back the {unit.title.lower()} ({unit.letter}) on {square_name(p[1])}."
                groups.setdefault("Take back", []).append(_option(p, state, summary))
        elif not focus:
            title = "Openings (replace your deployment)" if p[0] == OPENING else "Commit"
            summary = f"Deploy your side of the opening {p[1]!r}." if p[0] == OPENING else "Fix your deployment."
            groups.setdefault(title, []).append(_option(p, state, summary))
    territory = "rows 1-10" if seat == 0 else "rows 11-20"
    note = (
        f"Deploy all 17 units on empty non-mountain squares of {territory}: 'place <letter> <square>' "
        "(letters I C K W R X). Pass focus as a unit letter or a square to list placements."
    )
    return LegalMoves(groups=[MoveGroup(title=t, moves=m) for t, m in groups.items()], note=note)

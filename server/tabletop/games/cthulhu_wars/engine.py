"""The Cthulhu Wars engine (rules_text ``cthulhu-wars/turn``): the core contract over the modules here."""

from __future__ import annotations

import functools
import re
from typing import Any, ClassVar, Literal, get_args, get_origin

from pydantic import BaseModel, TypeAdapter

from tabletop.core.errors import GameOver, IllegalMove, NotYourTurn
from tabletop.core.game import ChanceOutcome, ChancePreview, Engine, LegalMoves, MoveGroup, MoveOption, Outcome
from tabletop.core.text import factor, merge_alternatives
from tabletop.games.cthulhu_wars import asking, board, creatures, decisions, notation, phases, setup, standing
from tabletop.games.cthulhu_wars import turn_actions
from tabletop.games.cthulhu_wars import words as words_of
from tabletop.games.cthulhu_wars.asking import PENDING_WORDS
from tabletop.games.cthulhu_wars.actions import CORE_ACTIONS, action_adapter
from tabletop.games.cthulhu_wars.battle import battle_preview, enemy_key
from tabletop.games.cthulhu_wars.refusals import why_not
from tabletop.games.cthulhu_wars.factions import FACTIONS
from tabletop.games.cthulhu_wars.maps import MapLayout, offered_maps
from tabletop.games.cthulhu_wars.maps.names import UnknownArea
from tabletop.games.cthulhu_wars.neutrals.catalogue import registry as neutrals  # the material built, registered
from tabletop.games.cthulhu_wars.neutrals import spellbooks as _neutral_spellbooks  # noqa: F401 (registers the books)
from tabletop.games.cthulhu_wars.options import CthulhuWarsOptions
from tabletop.games.cthulhu_wars.state import GameState
from tabletop.games.cthulhu_wars.turn_actions import resolve_turn_action, turn_options
from tabletop.games.cthulhu_wars.picture import draw_map
from tabletop.render import Scene

#: Titles of the legal-move groups, by action kind.
GROUP_TITLES = {
    "move": "Move (1 Power per unit)", "recruit": "Recruit Cultist", "gate": "Build Gate (3 Power)",
    "summon": "Summon Monster", "awaken": "Awaken Great Old One", "battle": "Battle (1 Power)",
    "capture": "Capture Cultist (1 Power)", "pass": "Pass (give up remaining Power)",
    "control": "Control Gate (unlimited, 0 Power)", "abandon": "Abandon Gate (unlimited, 0 Power)",
    "reveal": "Reveal Elder Signs (unlimited)", "done": "Done",
}  # fmt: skip


def play_legal(state: GameState, seat: int, action: Any) -> tuple[GameState, list[str]]:
    """A copy of ``state`` after ``seat`` plays ``action``, already known to be legal, with what it caused: the
    pending decision answered or the turn action taken, then the phases carried on (rules_text cthulhu-wars/turn)."""
    new = state.copy()
    log: list[str] = []
    if new.pending:
        decisions.resolve_decision(new, seat, action, log)
    else:
        resolve_turn_action(new, seat, action, log)
    phases.advance(new, log)
    return new, log


def all_action_models() -> tuple[type[BaseModel], ...]:
    return CORE_ACTIONS + tuple(m for f in FACTIONS.values() for m in f.action_models) + neutrals.action_models()


def kind_of(model: type[BaseModel]) -> str:
    return model.model_fields["kind"].default


class SummaryWithMaps:
    """The game's summary for list_games, then every map offered now (option ``map``) with its status, so a
    provisional map says so wherever the game is offered (read on the class or an instance)."""

    def __get__(self, instance: object, owner: type) -> str:
        return f"{owner.core_summary} Maps (option map): {map_list()}."  # type: ignore[attr-defined]


class CthulhuWars(Engine[GameState, Any]):
    name: ClassVar[str] = "cthulhu-wars"
    title: ClassVar[str] = "Cthulhu Wars"
    core_summary: ClassVar[str] = (
        "Area control for 3-6 players: Great Old Ones and their cults gather Power, "
        "build Gates, summon monsters, battle and perform Rituals for Doom; the game ends at 30 Doom or "
        "Instant Death, and only a faction holding all six spellbooks can win. Factions (option factions, 3-6 of "
        "them, 6 on the provisional 6-player Earth map; default the first in this list): "
        + "; ".join(f"{f.name}: {f.description}" for f in sorted(FACTIONS.values(), key=lambda f: f.default_rank))
        + "."
    )

    summary = SummaryWithMaps()  # type: ignore[assignment]
    min_seats: ClassVar[int] = setup.MIN_SEATS
    max_seats: ClassVar[int] = setup.MAX_SEATS
    options_model: ClassVar[type[BaseModel]] = CthulhuWarsOptions
    action_adapter: ClassVar[TypeAdapter[Any]] = action_adapter(all_action_models())
    notation_help: ClassVar[str] = (
        "kind then fields, e.g. `move acolyte north-atlantic>europe`, `recruit europe`, `gate europe`, "
        "`summon deep-one south-pacific`, `battle europe vs yellow-sign`, `done`, `pass` (rules://cthulhu-wars/notation)."
    )

    factor_separators: ClassVar[str] = " >"

    # ---- creating and reading -------------------------------------------------------------
    def new_game(self, options: BaseModel, seats: int, seed: int, names: list[str] | None = None) -> GameState:
        return setup.new_game(options, seats, seed)  # type: ignore[arg-type]

    def seat_count(self, state: GameState) -> int:
        return len(state.seats)

    def seat_roles(self, state: GameState) -> list[str]:
        return [FACTIONS[fs.faction].title for fs in state.seats]

    def to_move(self, state: GameState) -> list[int]:
        if state.phase == "over":
            return []
        if state.pending:
            return decisions.awaiting(state)
        return [state.turn.seat] if state.turn else []

    def legal_actions(self, state: GameState, seat: int) -> list[Any]:
        if seat not in self.to_move(state):
            return []
        if state.pending:
            return decisions.decision_options(state, seat)
        return turn_options(state, seat)

    def apply(self, state: GameState, seat: int, action: Any) -> tuple[GameState, list[str]]:
        """Check the action is listed for the seat, then carry it out on a copy (``cthulhu-wars/turn``)."""
        if state.phase == "over":
            raise GameOver("The game is over", rule="cthulhu-wars/end")
        if seat not in self.to_move(state):
            waiting = ", ".join(state.seats[s].faction for s in self.to_move(state))
            raise NotYourTurn(f"It is not {state.seats[seat].faction}'s decision; waiting for {waiting}", rule="cthulhu-wars/turn")
        if not self.is_legal(state, seat, action):
            legal = self.legal_actions(state, seat)
            reason = why_not(state, seat, action, safe_cost(state, action), PENDING_WORDS)
            raise IllegalMove(
                f"'{self.notation(action)}' is not legal now: {reason}",
                rule=self.rule_for(action),
                legal=[self.notation(a) for a in legal],
            )
        return play_legal(state, seat, action)

    def is_legal(self, state: GameState, seat: int, action: Any) -> bool:
        """Whether ``action`` is among the seat's legal actions, listing only actions of its kind in a turn."""
        if state.pending:
            return action in decisions.decision_options(state, seat)
        if action.kind == "move":
            return turn_actions.move_allowed(state, seat, action)
        return action in turn_options(state, seat, action.kind)

    def chance_preview(self, state: GameState, seat: int, action: Any) -> ChancePreview:
        """What a move involving chance could do: a battle's dice with their expected results
        (``cthulhu-wars/battle``), or a draw from the Elder Sign bag (``cthulhu-wars/doom``)."""
        if action.kind == "battle":
            enemy = enemy_key(state, action.enemy)
            odds = battle_preview(state, seat, action.area, enemy)
            a, d = odds.attacker, odds.defender
            note = f" {odds.defender_note}" if odds.defender_note else ""
            return ChancePreview(
                summary=f"Battle in {action.area}: {state.seats[seat].faction} rolls {a.dice} dice, "
                f"{action.enemy} rolls {d.dice} (current Combat, before pre-battle abilities). Each die: Kill on 6, "
                f"Pain on 4-5.{note}",
                outcomes=[
                    ChanceOutcome(result=f"{state.seats[seat].faction} scores at least one Kill", probability=a.chance_of_a_kill),
                    ChanceOutcome(result=f"{action.enemy} scores at least one Kill", probability=d.chance_of_a_kill),
                ],
            )
        return ChancePreview(
            summary="This move involves chance (dice, an Elder Sign drawn blind from the bag: values 1, 2 or 3, or on the "
            "Dreamlands the Bhole's and the Zoogs' dice at the end of the Doom phase); its result is decided only when "
            "it is played."
        )

    def rule_for(self, action: Any) -> str:
        """The rules section an action rests on, for refusals."""
        kind = action.kind
        neutral = neutrals.rule_for(action)
        if neutral:
            return neutral
        for faction in FACTIONS.values():
            if kind in {kind_of(m) for m in faction.action_models}:
                return f"cthulhu-wars/{faction.rules_by_kind.get(kind, faction.rules_section)}"
        return RULE_BY_KIND.get(kind, "cthulhu-wars/actions")

    def outcome(self, state: GameState) -> Outcome | None:
        if state.phase != "over":
            return None
        winners = state.winners or []
        doom = ", ".join(f"{fs.faction} {fs.doom}" for fs in state.seats)
        if state.citadel_victory is not None:
            seat, where = state.citadel_victory
            board_name = next((b.name for b in state.layout.board_places if b.id == where), where)
            reason = (f"Game over ({doom} Doom): {state.seats[seat].faction} won the Citadel victory, controlling a Gate "
                      f"in every Citadel of the {board_name}.")
            return Outcome(winners=winners, reason=reason, scores=[float(fs.doom) for fs in state.seats])
        reason = (
            f"Game over ({doom} Doom): " + " and ".join(state.seats[s].faction for s in winners) + " won."
            if winners
            else f"Game over ({doom} Doom): nobody held all six spellbooks, so everybody lost."
        )
        return Outcome(winners=winners, reason=reason, scores=[float(fs.doom) for fs in state.seats])

    # ---- notation -------------------------------------------------------------------------
    def notation(self, action: Any) -> str:
        return notation.to_text(action)

    def parse(self, text: str, state: GameState, seat: int) -> Any:
        models = {kind_of(m): m for m in all_action_models()}
        return notation.from_text(text, models, state.layout, [fs.faction for fs in state.seats] + creatures.in_game(state))

    def summarize(self, action: Any, state: GameState) -> str:
        return describe_cost(self.notation(action), action_cost(state, action))

    def option(self, action: Any, state: GameState, cost: int | None = None) -> MoveOption:
        """One legal move with its notation worked out once (``cost`` if already known); a direction of play says
        the order of the factions it gives."""
        cost = action_cost(state, action) if cost is None else cost
        if action.kind != "direction":
            return priced_option(action, cost)
        text = self.notation(action)
        order = words_of.play_order([fs.faction for fs in state.seats], state.first_player,
                                    1 if action.direction == "clockwise" else -1)
        return MoveOption(notation=text, action=action.model_dump(mode="json"), summary=f"{text}: play goes {order}")

    def legal_moves(self, state: GameState, seat: int, focus: str | None = None) -> LegalMoves:
        """Legal moves grouped by action type; ``focus`` keeps one action type or one area."""
        actions = self.legal_actions(state, seat)
        if focus:
            actions = [a for a in actions if matches_focus(state, a, focus)]
        groups: dict[str, list] = {}
        cost = cost_reader(state)
        titles: dict[str, str] = {}  # by action kind, worked out once
        for action in actions:
            kind = action.kind
            title = titles.get(kind) or titles.setdefault(kind, group_title(state, seat, kind))
            groups.setdefault(title, []).append(self.option(action, state, cost(action)))
        return LegalMoves(groups=[brief_group(t, m) for t, m in groups.items()])  # what is owed is said by Engine.owed

    # ---- views ----------------------------------------------------------------------------
    def view(self, state: GameState, seat: int | None) -> dict[str, Any]:
        """Public state; Elder Sign values only for their owner."""
        return {
            "round": state.round,
            "phase": state.phase,
            "layout": state.layout_name,
            "first_player": state.seats[state.first_player].faction,
            "direction": "clockwise" if state.direction == 1 else "counterclockwise",
            "ritual_cost": state.ritual_cost,
            "instant_death": state.instant_death,
            "to_move": [state.seats[s].faction for s in self.to_move(state)],
            "turn": state.seats[state.turn.seat].faction if state.turn else None,
            "pending": state.pending[0].kind if state.pending else None,
            "gates": {a: (state.seats[h[0]].faction if h else None) for a, h in state.gates.items()},
            "battle": battle_view(state),
            "factions": [self.faction_view(state, s, seat) for s in range(len(state.seats))],
            "winners": [state.seats[s].faction for s in state.winners] if state.winners is not None else None,
            **map_view(state),
        }

    def faction_view(self, state: GameState, s: int, viewer: int | None) -> dict[str, Any]:
        fs = state.seats[s]
        units: dict[str, dict[str, int]] = {}
        for kind, places in fs.units.items():
            for place in places:
                units.setdefault(place, {}).setdefault(kind, 0)
                units[place][kind] += 1
        return {
            "faction": fs.faction,
            "power": fs.power,
            "doom": fs.doom,
            "elder_signs": list(fs.elder_signs) if viewer == s else len(fs.elder_signs),
            "spellbooks": list(fs.spellbooks),
            "requirements_met": list(fs.requirements),
            "units": units,
            **({"buildings": dict(built)} if (built := board.faction_of(state, s).buildings(state, s)) else {}),
            "captives": len(fs.captives),
        }

    def draw(self, state: GameState, seat: int | None, overlays: frozenset[str], names: list[str] | None = None) -> Scene:
        """The map diagram with units, Gates and each faction's Power, Doom and spellbooks (public facts only)."""
        return draw_map(state, names, phase_label(state))

    def describe(self, state: GameState, seat: int | None) -> str:
        """The position in brief (``cthulhu-wars/turn``): the phase and who is awaited, one line per faction,
        then one line per occupied area with its Gate and everyone's units there."""
        lines = [self.head_line(state) + order_clause(state)]
        lines.extend(faction_line(state, s, seat) for s in range(len(state.seats)))
        lines.extend(area_lines(state))
        lines.extend(tail_lines(state))
        return "\n".join(lines)

    def position_parts(self, state: GameState, seat: int) -> dict[str, str]:
        """The position of ``describe`` by part, for telling a seat only what changed since it last saw it: the phase
        and who is awaited ("now") and the seat's own Power, Doom and Elder Signs ("you"), its status; the Ritual's
        cost; the order of play; each faction's Power, Doom and Elder Signs, and apart its spellbooks; each Area's line
        (an empty one "europe: empty"); and each note below them."""
        head, _, ritual = self.head_line(state).partition(" Ritual of Annihilation ")
        parts = {"now": head, "you": faction_stats(state, seat, seat),
                 "ritual": f"Ritual of Annihilation {ritual}" if ritual else "", "order": order_clause(state).strip()}
        for s, fs in enumerate(state.seats):
            if s != seat:
                parts[fs.faction] = faction_stats(state, s, seat)
            parts[f"{fs.faction} spellbooks"] = f"{fs.faction} spellbooks {len(fs.spellbooks)}/6: {', '.join(fs.spellbooks) or 'none'}."
        marks = area_marks(state)
        parts.update((a.id, area_line(state, a.id, marks) or f"{a.id}: empty") for a in state.layout.areas)
        parts.update((line, line) for line in tail_lines(state))
        return parts


    def status(self, state: GameState, seat: int) -> str:
        """The phase and who is awaited, and the seat's own Power, Doom and Elder Signs (the order of play, which
        changes once a round, is left to ``describe``)."""
        return f"{self.head_line(state)}\n{faction_line(state, seat, seat)}"

    def head_line(self, state: GameState) -> str:
        """The round, the phase, who is awaited and the Ritual's cost: the first line of ``describe`` without the order
        of play."""
        waiting = ", ".join(state.seats[s].faction for s in self.to_move(state)) or "nobody"
        pending = f" to {asking.pending_words(state.pending[0].kind)}" if state.pending else ""
        return (f"Round {state.round}, {phase_label(state)}. Waiting for {waiting}{pending}. "
                f"Ritual of Annihilation costs {state.ritual_cost}" + (" (Instant Death reached)." if state.instant_death else "."))

    # ---- what a seat is told (rules_text cthulhu-wars/out-of-turn, cthulhu-wars/turn) ----------
    standing_model: ClassVar[type[BaseModel] | None] = standing.StandingAnswers

    def decision_text(self, state: GameState, seat: int) -> str | None:
        """For a seat asked in an out-of-turn window: what opened it and its real options, in a few lines
        (``cthulhu-wars/out-of-turn``); None for every other decision."""
        return asking.window_text(state, seat)

    def owed(self, state: GameState, seat: int) -> str | None:
        """What the seat must or may do next, or why nothing is asked of it (``cthulhu-wars/turn``)."""
        return asking.owed(state, seat)

    def standing_answer(self, state: GameState, seat: int, answers: BaseModel) -> str | None:
        """``done`` for a seat asked in a window its standing answers pass, else None (``cthulhu-wars/out-of-turn``)."""
        return standing.standing_answer(state, seat, answers)


def order_clause(state: GameState) -> str:
    """The order of play from the First Player, once the direction is chosen (``cthulhu-wars/first-player``)."""
    if state.phase == "over" or any(p.kind in ("first-player", "direction", "start-area") for p in state.pending):
        return ""
    way = "clockwise" if state.direction == 1 else "counterclockwise"
    order = words_of.play_order([fs.faction for fs in state.seats], state.first_player, state.direction)
    return f" Play goes {way}: {order}."


def phase_label(state: GameState) -> str:
    """The phase as players name it: the First Player's choices come between Gather Power and Doom."""
    if state.phase == "over":
        return "game over"
    if state.pending and state.pending[0].kind in ("first-player", "direction"):
        return "First Player phase"
    if state.phase == "doom":
        return "Doom phase"
    if state.battle is not None:
        return f"Action phase, battle in {state.battle['area']}"
    return "Action phase"


def faction_line(state: GameState, s: int, seat: int | None) -> str:
    """A faction's line: Power, Doom, Elder Signs (their values to their owner only), spellbooks and its notes."""
    fs = state.seats[s]
    signs = f"Elder Signs {fs.elder_signs}" if seat == s else f"{len(fs.elder_signs)} Elder Signs"
    books = ", ".join(fs.spellbooks) or "none"
    extra = "".join(f"; {note}" for note in board.faction_of(state, s).line_notes(state, s))
    return f"{fs.faction}: {fs.power} Power, {fs.doom} Doom, {signs}; spellbooks {len(fs.spellbooks)}/6: {books}{extra}."


def faction_stats(state: GameState, s: int, seat: int | None) -> str:
    """A faction's Power, Doom, Elder Signs (their values to their owner only) and notes, without its spellbooks."""
    fs = state.seats[s]
    signs = f"Elder Signs {fs.elder_signs}" if seat == s else f"{len(fs.elder_signs)} Elder Signs"
    extra = "".join(f"; {note}" for note in board.faction_of(state, s).line_notes(state, s))
    return f"{fs.faction}: {fs.power} Power, {fs.doom} Doom, {signs}{extra}."


def tail_lines(state: GameState) -> list[str]:
    """What the position tells below the Areas: the factions' notes, the creatures, the map's Citadels and tunnels."""
    lines = [note for s in range(len(state.seats)) for note in board.faction_of(state, s).notes(state, s)]
    return lines + creatures.describe_lines(state) + map_lines(state.layout)


def area_marks(state: GameState) -> dict[str, list[str]]:
    """The markers in each Area (creatures, factions' markers such as Ice Age, buildings that are not Gates such as
    "Cathedral of ancients"), by Area."""
    marks: dict[str, list[str]] = {area: list(names) for area, names in creatures.markers(state).items()} if state.pieces else {}
    for where, names in neutrals.area_markers(state).items():  # ownerless Filth (cthulhu-wars/igoo-abhoth)
        marks.setdefault(where, []).extend(names)
    for s in range(len(state.seats)):
        faction = board.faction_of(state, s)
        for where, names in faction.area_markers(state, s).items():
            marks.setdefault(where, []).extend(names)
        for where, kind in faction.buildings(state, s):
            marks.setdefault(where, []).append(f"{kind.title()} of {state.seats[s].faction}")
    return marks


def area_line(state: GameState, area: str, marks: dict[str, list[str]]) -> str | None:
    """An Area's line, ``europe: Gate of yellow-sign; yellow-sign 2 acolyte``, or None when nothing is there."""
    gate = "".join(f"{m}; " for m in marks.get(area, []))
    if area in state.gates:
        holder = state.controller(area)
        gate += f"Gate of {state.seats[holder].faction}; " if holder is not None else "abandoned Gate; "
    units = []
    for fs in state.seats:
        here = [f"{n} {kind}" if n > 1 else kind for kind, n in fs.in_area(area).items()]
        if here:
            units.append(f"{fs.faction} {', '.join(here)}")
    return f"{area}: {gate}{'; '.join(units) or 'no units'}" if gate or units else None


def area_lines(state: GameState) -> list[str]:
    """One line per area holding a Gate or units: ``europe: Gate of yellow-sign; yellow-sign 2 acolyte``."""
    marks = area_marks(state)
    return [line for area in state.layout.areas if (line := area_line(state, area.id, marks))]


def battle_view(state: GameState) -> dict[str, Any] | None:
    """The battle under way: where, who, and the dice rolled so far."""
    battle = state.battle
    if battle is None:
        return None

    def name(seat: int | str) -> str:
        return state.seats[seat].faction if isinstance(seat, int) else seat

    return {
        "area": battle["area"],
        "attacker": name(battle["attacker"]),
        "defender": name(battle["defender"]),
        "rolls": {name(s): list(r) for s, r in battle["rolls"].items()},
    }


def map_list() -> str:
    """Every map offered, with its layouts and status, for list_games."""
    parts = []
    for offered in offered_maps():
        layouts = ", ".join(offered.layouts)
        status = offered.file.provenance.summary if offered.file.provenance.status == "provisional" else "official"
        origin = "" if offered.origin == "built-in" else f", from {offered.origin}"
        own = [f"{e.name}: {e.provenance.summary}" for e in offered.file.layouts
               if e.provenance is not None and e.provenance.status == "provisional"]
        status += "".join(f"; except {note}" for note in own)
        parts.append(f"{offered.id} ({layouts}{origin}; {status})")
    return "; ".join(parts)


def map_lines(layout: MapLayout) -> list[str]:
    """Citadels and tunnels of a map of several boards, and a provisional map's warning, for the position text."""
    lines = []
    if layout.citadels():
        by_board = []
        for place in layout.board_places:
            here = [f"{a.id} {'-'.join(map(str, (a.citadel[0], a.citadel[-1]))) if len(a.citadel) > 1 else a.citadel[0]}"
                    for a in layout.citadels(place.id)]
            if here:
                by_board.append(f"{place.name}: {', '.join(here)}")
        lines.append("Citadels (die numbers): " + "; ".join(by_board) + ". Gates in all four Citadels of one board win at once.")
    tunnels = sorted({(a.tunnel, *sorted((a.id, a.tunnel_to))) for a in layout.areas if a.tunnel and a.tunnel_to})
    if tunnels:
        lines.append("Tunnels: " + ", ".join(f"{t} {a}~{b}" for t, a, b in tunnels) + ".")
    if layout.is_provisional:
        lines.append(f"Map {layout.name}: {layout.provenance_summary} (rules://{layout.provenance_rule})")
    return lines


def map_view(state: GameState) -> dict[str, Any]:
    """The map's name and status, and its creatures and a Citadel victory if it has them (added to ``view``)."""
    layout = state.layout
    found: dict[str, Any] = {"map": {"name": layout.map, "layout": layout.name, "status": layout.provenance_status}}
    if layout.is_provisional:
        found["map"]["note"] = layout.provenance_summary
    if state.pieces:
        found["creatures"] = creatures.view(state)
    if state.citadel_victory is not None:
        found["citadel_victory"] = {"faction": state.seats[state.citadel_victory[0]].faction, "board": state.citadel_victory[1]}
    return found


RULE_BY_KIND = {
    "battle": "cthulhu-wars/battle", "assign": "cthulhu-wars/battle", "retreat": "cthulhu-wars/battle",
    "proceed": "cthulhu-wars/battle", "ritual": "cthulhu-wars/doom", "no-ritual": "cthulhu-wars/doom",
    "first-player": "cthulhu-wars/first-player", "direction": "cthulhu-wars/first-player",
    "spellbook": "cthulhu-wars/factions", "offer": "cthulhu-wars/negotiation", "done": "cthulhu-wars/turn",
    "start": "cthulhu-wars/setup",
    "pass": "cthulhu-wars/turn",
}  # fmt: skip


#: A unit move in notation: the unit, where from, where to.
UNIT_MOVE = re.compile(r"^move (\S+) (\S+)>(\S+)$")


def units_together(notations: tuple[str, ...]) -> list[str] | None:
    """A Move's options written compactly: the units that may go from one Area to the same Areas on one line
    ("move acolyte/ghoul africa>asia/europe"; a/b: any one of them), in the order first met (``cthulhu-wars/notation``)."""
    lines: dict[str, dict[str, list[str]]] = {}  # source -> unit -> targets
    for text in notations:
        found = unit_move_parts(text)
        if found is None:
            return None  # a move written otherwise (a faction's): the plain factored list
        unit, source, target = found
        lines.setdefault(source, {}).setdefault(unit, []).append(target)
    brief: dict[tuple[str, tuple[str, ...]], list[str]] = {}
    for source, units in lines.items():
        for unit, targets in units.items():
            brief.setdefault((source, tuple(targets)), []).append(unit)
    return [f"move {'/'.join(units)} {source}>{'/'.join(targets)}" for (source, targets), units in brief.items()]


@functools.lru_cache(maxsize=65536)
def unit_move_parts(text: str) -> tuple[str, str, str] | None:
    """The unit, source and target of a unit move's notation (:data:`UNIT_MOVE`), or None for any other text; read once
    for each notation, as the same moves are listed position after position (the answer depends on the text alone)."""
    found = UNIT_MOVE.match(text)
    return found.groups() if found else None  # type: ignore[return-value]


#: The longest group of moves written on one line (with what its title adds) rather than under its title.
ONE_LINE = 160


def group_title(state: GameState, seat: int, kind: str) -> str:
    """The title of a group of legal moves: Build Gate says what a Gate costs the seat now (2 with Umr at-Tawil,
    ``cthulhu-wars/neutral-umr-at-tawil``)."""
    if kind == "gate":
        return f"Build Gate ({turn_actions.gate_cost(state, seat)} Power)"
    return GROUP_TITLES.get(kind, kind)


def brief_group(title: str, moves: list[MoveOption]) -> MoveGroup:
    """A group of legal moves with its compact text (``cthulhu-wars/notation``): alternatives factored, lines alike but
    for one word merged ("battle asia/europe vs great-cthulhu", "summon deep-one/shoggoth europe"), a Move's units
    together. Moves that name their action say it themselves: a short group is one line with what its title adds
    ("control europe (unlimited, 0 Power)", "done"), a long one sits under its title only when that says more."""
    brief, show_title = group_layout(title, tuple(m.notation for m in moves))
    return MoveGroup(title=title, moves=moves, brief=list(brief), show_title=show_title)


@functools.lru_cache(maxsize=4096)
def group_layout(title: str, notations: tuple[str, ...]) -> tuple[tuple[str, ...], bool]:
    """The compact lines of a group of moves and whether its title is shown (:func:`brief_group`), worked out once for
    each title and list of notations: the same groups come back position after position, and a position listed again
    costs no layout at all. (A kept layout holds its lines and the notations, which the listed moves hold too: a few
    kilobytes at most.)"""
    lines = (units_together(notations) if title == GROUP_TITLES["move"] else None) or factor(list(notations), " >")
    lines = merge_alternatives(lines, " >")
    verb = title.split()[0].lower()
    note = title[title.index("("):] if "(" in title else ""
    if any(line.split(" ", 1)[0] != verb for line in lines):
        return tuple(lines), True
    one = "; ".join(lines) + (f" {note}" if note else "")
    if len(one) <= ONE_LINE:
        return (one,), False
    return tuple(lines), bool(note)


@functools.lru_cache(maxsize=65536)
def priced_option(action: Any, cost: int) -> MoveOption:
    """A legal move that says no more than its notation and its cost, written out once for each action and cost
    (actions are immutable and the same moves come back position after position; nothing changes a listed option)."""
    text = notation.to_text(action)
    # validated, which pydantic does faster than it builds a model without validation (model_construct)
    return MoveOption(notation=text, action=action_json(action), summary=describe_cost(text, cost))


def action_json(action: Any) -> dict[str, Any]:
    """``action.model_dump(mode="json")``: for an action whose fields are all strings (:func:`all_strings`) a copy of
    its field values (in field order, with nothing for pydantic to convert, it is the same dict), built without the
    serializer that a new listed move would otherwise pay most of its first listing for."""
    if all_strings(type(action)):
        return dict(action.__dict__)
    return action.model_dump(mode="json")


@functools.cache
def all_strings(model: type[BaseModel]) -> bool:
    """Whether every field of an action model is a string (``str``, or a ``Literal`` of strings such as ``kind``),
    read from its field annotations: its JSON form is then its field values as they stand."""
    def plain(annotation: Any) -> bool:
        return annotation is str or (
            get_origin(annotation) is Literal and all(isinstance(a, str) for a in get_args(annotation)))

    return all(plain(field.annotation) for field in model.model_fields.values())


def describe_cost(text: str, cost: int) -> str:
    return text + (f" (costs {cost} Power)" if cost else "")


def action_cost(state: GameState, action: Any) -> int:
    """Power an action costs now, Ice Age's extra cost included (0 for decisions and free actions)."""
    return cost_reader(state)(action)


def cost_reader(state: GameState) -> Any:
    """A function giving what each action costs in this position (the seat and extra costs worked out once, and a
    Move's base cost once per unit type)."""
    seat = decisions.awaiting(state)[0] if state.pending else (state.turn.seat if state.turn else 0)
    taxed = {} if state.pending and state.pending[0].kind not in board.faction_of(state, seat).action_decisions else (
        turn_actions.taxes(state, seat))
    own_turn = state.turn is not None and state.turn.seat == seat
    base_cost = turn_actions.cost_table(state, seat)
    if not taxed:
        return base_cost  # no extra cost anywhere: the base cost is the whole cost

    def cost(action: Any) -> int:
        base = base_cost(action)
        if action.kind == "move":
            return base + (turn_actions.move_tax(state, seat, action.target, taxed) if own_turn else 0)
        return base + turn_actions.action_tax(state, seat, action, taxed)

    return cost


def safe_cost(state: GameState, action: Any) -> int:
    """What an action would cost, or 0 when it names something its faction does not have."""
    try:
        return action_cost(state, action)
    except (KeyError, StopIteration, ValueError):
        return 0


def matches_focus(state: GameState, action: Any, focus: str) -> bool:
    """Whether an action is of the focused type, moves or uses the focused unit type, or touches the focused area."""
    needle = focus.strip().lower()
    if action.kind == needle or GROUP_TITLES.get(action.kind, "").lower().startswith(needle):
        return True
    unit = needle.replace(" ", "-").replace("_", "-")
    if unit in {getattr(action, "unit", None), *getattr(action, "units", ())}:
        return True
    try:
        area = state.layout.find_area(focus).id
    except UnknownArea:
        return False
    return area in {getattr(action, f, None) for f in ("area", "source", "target")}


ENGINE = CthulhuWars()

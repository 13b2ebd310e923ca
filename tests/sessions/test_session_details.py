"""Details of the session layer a mutation run (benchmarks/mutation.py, sessions group) showed untested.

Retried moves (``expected``): during a secret deployment, where each seat counts only the moves it may see,
and the refusals a stale number gets, with their rule citations.

GameSessions.play's docstring: moves already played by this seat at the expected number are reported again
(``already``), never played twice; any other mismatch is a conflict citing the turn rules. A seat's move
numbers during A Game of War's hidden deployment count only its own placements (rules_text game-of-war/setup:
the other side's deployment stays secret). Found missing by benchmarks/mutation.py (sessions group).
"""

from __future__ import annotations

import sqlite3

import anyio
import pytest

from tabletop.core.errors import GameError, IllegalMove, MalformedMove, NotYourTurn
from tabletop.sessions.manager import CROSS_PROCESS_POLL, MAX_MOVE_TEXT, MAX_SEQUENCE, BadToken, GameSessions, MoveConflict
from tabletop.sessions.store import GameStore


@pytest.fixture
def sessions(tmp_path):
    store = GameStore(tmp_path / "games.sqlite3")
    yield GameSessions(store)
    store.close()


def placements(live, seat: int) -> list[str]:
    return [m.notation for g in live.legal_moves(seat, focus="I").groups for m in g.moves if m.notation.startswith("place")]


def test_a_retried_secret_placement_is_reported_again_numbered_among_the_seats_own_moves(sessions):
    live, tokens = sessions.create("game-of-war", {}, 2, seed=3)
    assert live.engine.secret_phase(live.state)
    north = []
    for number in (1, 2, 3):
        move = placements(live, 0)[0]
        played = sessions.play(live.id, tokens[0], move, expected=number)
        assert played.shown == [number] and not played.already
        north.append(move)
        sessions.play(live.id, tokens[1], placements(live, 1)[0], expected=number)  # South's between North's
    assert live.ply == 6
    again = sessions.play(live.id, tokens[0], north[1], expected=2)
    assert again.already and not again.dry_run, "a retry reports the move as played, not as a dry run"
    assert again.shown == [2] and again.notation == north[1] and [s.ply for s in again.steps] == [3]
    both = sessions.play(live.id, tokens[0], north[1:], expected=2)
    assert both.already and both.shown == [2, 3] and [s.ply for s in both.steps] == [3, 5]
    assert live.ply == 6, "nothing was played again"
    with pytest.raises(MoveConflict) as conflict:
        sessions.play(live.id, tokens[0], north[2], expected=2)
    assert "those moves are not yours as given" in conflict.value.message
    assert conflict.value.rule == "game-of-war/turn"


def test_a_stale_move_number_is_a_conflict_citing_the_turn_rules(sessions):
    live, tokens = sessions.create("cthulhu-dice", {}, ["Ann", "Bob"], seed=4)
    sessions.play(live.id, tokens[0], "roll", expected=1)
    with pytest.raises(MoveConflict) as conflict:
        sessions.play(live.id, tokens[live.to_move()[0]], "roll", expected=5)
    assert conflict.value.message == (
        "You expected your move to be move 5, but the game is at move 1; nothing was played. Read the state and choose again"
    )
    assert conflict.value.rule == "cthulhu-dice/turn"


def test_a_table_entry_with_a_stale_number_is_a_conflict_naming_what_to_do(sessions):
    live, tokens = sessions.create("cthulhu-dice", {"chance": "table"}, ["Ann", "Bob"], seed=4)
    referee = tokens[-1]
    sessions.play(live.id, tokens[0], "roll", expected=1)
    with pytest.raises(MoveConflict) as conflict:
        sessions.play(live.id, referee, "enter library library library", expected=7)
    assert conflict.value.message == (
        "You expected this to be move 7, but the game is at move 1; nothing was entered. Read legal_moves and enter again"
    )
    assert conflict.value.rule == "cthulhu-dice/table"


def test_forgetting_a_game_drops_it_from_memory_and_is_harmless_when_it_is_not_there(sessions):
    """GameSessions.forget: the next access reloads the game from its log; forgetting a game not in memory
    (never loaded here, or already forgotten, as after a storage failure) does nothing."""
    live, tokens = sessions.create("cthulhu-dice", {}, 2, seed=4)
    sessions.play(live.id, tokens[0], "roll")
    sessions.forget(live.id)
    sessions.forget(live.id)
    sessions.forget("no-such-game")
    again = sessions.get(live.id)
    assert again is not live and again.ply == 1 and again.state.stash == live.state.stash


def test_table_entries_are_the_referees_alone_one_at_a_time_and_only_when_awaited(sessions):
    """rules_text cthulhu-dice/table: at a real table the referee enters what the dice showed, one entry per
    call, only when the game awaits one; a dry run shows the entry without playing it."""
    live, tokens = sessions.create("cthulhu-dice", {"chance": "table"}, ["Ann", "Bob"], seed=4)
    referee, draw = tokens[-1], "enter library library library"
    with pytest.raises(IllegalMove) as nothing:
        sessions.play(live.id, referee, draw)
    assert nothing.value.message == "Nothing awaits the table now: enter results only when legal_moves asks for them"
    assert nothing.value.rule == "cthulhu-dice/table"
    sessions.play(live.id, tokens[0], "roll")
    with pytest.raises(BadToken) as seat_token:
        sessions.play(live.id, tokens[0], draw)
    assert seat_token.value.message.startswith("Only the referee enters what the table rolled or drew")
    assert seat_token.value.message.endswith(
        "a seat's token cannot. Ask the referee, who holds the token new_game returned for it"
    )
    assert seat_token.value.rule == "cthulhu-dice/table"
    with pytest.raises(MalformedMove) as two:
        sessions.play(live.id, referee, [draw, "enter clue clue clue"])
    assert two.value.message == "An entry or an undo is sent alone, one per apply_move"
    assert two.value.rule == "cthulhu-dice/table"
    before = live.state
    preview = sessions.play(live.id, referee, draw, dry_run=True)
    assert preview.dry_run and preview.state_after is before and [s.ply for s in preview.steps] == [2]
    assert live.ply == 1 and live.state is before, "a dry run enters nothing"
    entered = sessions.play(live.id, referee, draw, expected=2)
    assert [s.ply for s in entered.steps] == [2] and entered.notation == draw and live.ply == 2
    assert entered.pending == "rolls a library die: enter one of elder_sign, clue, tentacle", "what the table enters next"


def test_the_referee_names_the_seat_it_moves_for_with_a_prefix(sessions):
    """chosen_seat: a referee's move may start with the seat it is for ('1: roll'); without one it is for the
    seat awaited; a seat that does not exist is a malformed move."""
    live, tokens = sessions.create("cthulhu-dice", {"chance": "table"}, ["Ann", "Bob"], seed=4)
    referee = tokens[-1]
    with pytest.raises(NotYourTurn) as other:
        sessions.play(live.id, referee, "1: roll")
    assert other.value.message.startswith("It is not Bob's turn; the game is waiting for Ann")
    with pytest.raises(MalformedMove) as missing:
        sessions.play(live.id, referee, "7: roll")
    assert missing.value.message == "There is no seat 7; seats are 0 to 1"
    with pytest.raises(MalformedMove):  # a move object is never read as a prefixed seat, whatever its keys
        sessions.play(live.id, referee, {":": "roll"})
    played = sessions.play(live.id, referee, "0: roll")
    assert played.seat == 0 and played.notation == "roll" and live.ply == 1


def test_a_move_is_read_up_to_its_length_limit_and_refused_beyond_it_echoing_only_its_start(sessions):
    """within_limits: a move text is at most MAX_MOVE_TEXT characters, a move object ten times that as JSON;
    beyond, a typed refusal echoes the move's first 60 characters only."""
    live, tokens = sessions.create("cthulhu-dice", {"chance": "table"}, ["Ann", "Bob"], seed=4)
    referee = tokens[-1]
    with pytest.raises(MalformedMove) as long_text:
        sessions.play(live.id, referee, "enter " + "x" * (MAX_MOVE_TEXT - 5))
    assert long_text.value.message == (
        f"A move is at most {MAX_MOVE_TEXT} characters long; this one has {MAX_MOVE_TEXT + 1}: enter " + "x" * 53 + "…"
    )
    with pytest.raises(GameError) as at_limit:
        sessions.play(live.id, referee, "enter " + "x" * (MAX_MOVE_TEXT - 6))
    assert "characters long" not in at_limit.value.message, "exactly at the limit is read (and refused for itself)"
    big_object = {"kind": "roll", "note": "x" * (3 * MAX_MOVE_TEXT)}
    with pytest.raises(GameError) as object_move:
        sessions.play(live.id, referee, big_object)
    assert "characters long" not in object_move.value.message, "an object may be ten times longer"
    assert live.ply == 0


def test_a_table_game_whose_setup_would_roll_is_refused_naming_the_draw_and_the_way_out(sessions):
    """rules_text cthulhu-wars/table: without Great Cthulhu the first player is drawn at random; a table game
    cannot ask for it before it exists, so the options are refused (nothing is created)."""
    with pytest.raises(GameError) as refused:
        sessions.create("cthulhu-wars", {"chance": "table", "factions": ["crawling-chaos", "black-goat", "yellow-sign"]}, 3, seed=1)
    assert refused.value.message == (
        "With chance 'table', setting up would need the table at once (the faction that plays first); settle it at "
        "the table and give the result as an option instead (e.g. a fixed first player)"
    )
    assert refused.value.rule == "cthulhu-wars/table"
    assert sessions.store.list_games(limit=10) == []


def test_a_move_involving_chance_must_end_its_sequence_and_nothing_is_played(sessions):
    """A roll's result decides what comes next, so a sequence may hold it only as its last move."""
    live, tokens = sessions.create("cthulhu-dice", {}, 2, seed=4)
    with pytest.raises(IllegalMove) as refused:
        sessions.play(live.id, tokens[0], ["roll", "roll"])
    assert refused.value.message == (
        "Move 1 of 2 ('roll') involves chance, so it must be the last move of a sequence: its result decides what "
        "comes next. Nothing was played; send the moves up to it, then the rest once you have seen its result"
    )
    assert refused.value.rule == "cthulhu-dice/notation"
    assert live.ply == 0 and sessions.store.last_ply(live.id) == 0


def test_out_of_turn_refusals_cite_the_turn_rule_and_say_how_to_wait(sessions):
    live, tokens = sessions.create("cthulhu-dice", {}, ["Ann", "Bob"], seed=4)
    with pytest.raises(NotYourTurn) as refused:
        sessions.play(live.id, tokens[1], "roll")
    assert refused.value.message == (
        "It is not Bob's turn; the game is waiting for Ann. Call wait_for_turn to be told when it is yours"
    )
    assert refused.value.rule == "cthulhu-dice/turn"


def test_a_seat_cannot_play_while_the_table_owes_an_entry_and_is_told_the_referee_enters_it(sessions):
    """rules_text cthulhu-dice/table: while the game waits for what the real dice showed, no seat moves."""
    live, tokens = sessions.create("cthulhu-dice", {"chance": "table"}, ["Ann", "Bob"], seed=4)
    sessions.play(live.id, tokens[0], "roll")
    waiting_for = live.pending.request.text
    assert live.to_move() == [], "no seat is to move while the table owes an entry"
    with pytest.raises(NotYourTurn) as refused:
        sessions.play(live.id, tokens[0], "roll")
    assert refused.value.message == f"The table must first enter {waiting_for}; the referee does it ('enter ...')"
    assert refused.value.rule == "cthulhu-dice/table"


class LaggingStore(GameStore):
    """A store whose move count is read stale once (``lag`` set): what a server sees when another process commits
    a move between its read and its write."""

    lag = False

    def last_ply(self, game_id: str) -> int:
        return 0 if self.lag else super().last_ply(game_id)


@pytest.mark.parametrize("chance", ["server", "table"])
def test_a_move_another_process_logged_first_is_a_conflict_and_the_game_catches_up(tmp_path, chance):
    """Two servers on one database: the later writer of a move number is refused, plays nothing, and reads the
    move that won (the store's unique move numbers decide)."""
    here_store, there_store = LaggingStore(tmp_path / "g.sqlite3"), GameStore(tmp_path / "g.sqlite3")
    here, there = GameSessions(here_store), GameSessions(there_store)
    live, tokens = here.create("cthulhu-dice", {"chance": chance}, ["Ann", "Bob"], seed=4)
    if chance == "table":
        here.play(live.id, tokens[0], "roll")
        there.play(live.id, tokens[-1], "enter library library library")
        here_store.lag = True
        with pytest.raises(MoveConflict) as conflict:
            here.play(live.id, tokens[-1], "enter museum museum tomb")
        assert conflict.value.message == "Another server process recorded a move in this game first; nothing was played"
    else:
        there.play(live.id, tokens[0], "roll")
        here_store.lag = True
        with pytest.raises(MoveConflict) as conflict:
            here.play(live.id, tokens[0], "roll")
        assert conflict.value.message == (
            "Another server process recorded a move in this game first; nothing was played. "
            "Read the state again and choose a move"
        )
    here_store.lag = False
    assert here.get(live.id).ply == there.get(live.id).ply == there_store.last_ply(live.id)
    assert [m.notation for m in here_store.moves(live.id)] == [m.notation for m in there_store.moves(live.id)]
    here_store.close()
    there_store.close()


def test_only_a_store_deaf_to_other_processes_is_polled_by_waiters(sessions):
    """wait_for_turn hears its own process's moves at once; SQLite cannot tell it of another process's, so
    waiters read the log again every CROSS_PROCESS_POLL seconds (PostgreSQL notifies instead)."""
    assert not sessions.store.hears_other_processes and sessions.poll == CROSS_PROCESS_POLL


def test_every_signal_is_counted_so_a_move_during_a_read_is_never_missed(sessions):
    """wait_until compares the signal count before and after its read: two moves in a row must count twice."""
    live, _ = sessions.create("cthulhu-dice", {}, 2, seed=4)
    with sessions._waiting_on(live.id) as waiting:
        before = waiting.signals
        sessions.signal(live.id)
        sessions.signal(live.id)
        assert waiting.signals == before + 2


def test_a_refused_move_in_a_sequence_is_named_by_its_place_and_text_and_nothing_is_played(sessions):
    """rules_text cthulhu-dice/turn: no retreat before the first roll; in a sequence the refusal says which move."""
    live, tokens = sessions.create("cthulhu-dice", {}, 2, seed=4)
    with pytest.raises(IllegalMove) as refused:
        sessions.play(live.id, tokens[0], ["retreat", "roll"])
    assert refused.value.message.startswith("Move 1 of 2 ('retreat') was refused, so nothing was played: ")
    assert refused.value.rule.startswith("cthulhu-dice/") and live.ply == 0
    assert refused.value.legal == ["roll"], "the refusal lists what the seat may play instead"
    long_move = "retreat " + "x" * 100
    with pytest.raises(GameError) as long_one:
        sessions.play(live.id, tokens[0], [long_move, "roll"])
    assert f"Move 1 of 2 ('{long_move[:79]}…') was refused" in long_one.value.message, "echoed up to 80 characters"
    with pytest.raises(GameError) as fifty:  # the longest sequence allowed is read, and refused by the rules
        sessions.play(live.id, tokens[0], ["retreat"] * MAX_SEQUENCE)
    assert fifty.value.message.startswith(f"Move 1 of {MAX_SEQUENCE} ('retreat') was refused")
    with pytest.raises(IllegalMove) as as_object:  # a move object is shown as its JSON
        sessions.play(live.id, tokens[0], [{"kind": "retreat"}, "roll"])
    assert as_object.value.message.startswith("""Move 1 of 2 ('{"kind": "retreat"}') was refused, so nothing was played: """)


def test_a_referees_seat_prefix_is_read_up_to_the_first_colon_only(sessions):
    """chosen_seat: '0: roll: now' is a move for seat 0 whose text is 'roll: now' (not a move), refused as such —
    never a crash on the second colon."""
    live, tokens = sessions.create("cthulhu-dice", {"chance": "table"}, ["Ann", "Bob"], seed=4)
    with pytest.raises(GameError) as refused:
        sessions.play(live.id, tokens[-1], "0: roll: now")
    assert type(refused.value) in (MalformedMove, IllegalMove) and live.ply == 0
    assert "'roll: now'" in refused.value.message, "the move read is everything after the seat's colon"
    played = sessions.play(live.id, tokens[-1], "0:roll")  # no space after the colon
    assert played.seat == 0 and played.notation == "roll" and live.ply == 1


def test_games_are_listed_fifty_at_most_unless_asked(sessions):
    for seed in range(52):
        sessions.create("cthulhu-dice", {}, 2, seed=seed)
    assert len(sessions.list()) == 50 and len(sessions.list(limit=60)) == 52


@pytest.mark.anyio
async def test_wait_for_moves_returns_at_a_new_move_or_at_its_timeout(sessions):
    """The spectator site's wait: the game once it has more moves than ``after``, else as it is at the timeout."""
    live, tokens = sessions.create("cthulhu-dice", {}, 2, seed=4)
    quiet = await sessions.wait_for_moves(live.id, after=0, timeout=0.05)
    assert quiet.ply == 0
    seen = []

    async def watcher():
        seen.append((await sessions.wait_for_moves(live.id, after=0, timeout=30)).ply)

    async with anyio.create_task_group() as tg:
        tg.start_soon(watcher)
        await anyio.wait_all_tasks_blocked()  # the watcher has read the game (no move yet) and sleeps
        assert seen == [], "no move after move 0 yet: it must still wait"
        sessions.play(live.id, tokens[0], "roll")
    assert seen == [1]


def test_a_war_move_refused_after_set_up_lists_the_legal_moves_factored(sessions):
    """with_legal_moves: an engine's refusal listing every legal move one by one is answered with the same moves
    in the factored notation legal_moves uses (``R c4-b3/c3/...``), not a list ten times as long."""
    live, tokens = sessions.create("game-of-war", {}, 2, seed=1)
    for phase in ("opening default", "commit"):
        for seat in (0, 1):
            sessions.play(live.id, tokens[seat], phase)
    seat = live.to_move()[0]
    with pytest.raises(IllegalMove) as refused:
        sessions.play(live.id, tokens[seat], "commit")
    assert refused.value.message == "Set-up is over: move, attack or end"
    assert refused.value.legal == live.engine.legal_notations(live.state, seat)


def test_a_retried_undo_is_reported_again_and_takes_nothing_more_back(sessions):
    """rules_text cthulhu-dice/table: undo takes back the last move; sent again with the same move number (a
    retry after a lost answer) it is reported as done, and nothing else is taken back."""
    live, tokens = sessions.create("cthulhu-dice", {"chance": "table"}, ["Ann", "Bob"], seed=4)
    referee = tokens[-1]
    with pytest.raises(IllegalMove) as nothing:
        sessions.play(live.id, referee, "undo")
    assert nothing.value.message == "Nothing can be taken back: no move was played"
    assert nothing.value.rule == "cthulhu-dice/table"
    sessions.play(live.id, tokens[0], "roll")
    sessions.play(live.id, referee, "enter library library library", expected=2)
    undone = sessions.play(live.id, referee, "undo", expected=3)
    assert not undone.already and live.ply == 3
    again = sessions.play(live.id, referee, "undo", expected=3)
    assert again.already and again.notation == "undo" and [s.ply for s in again.steps] == [3] and live.ply == 3
    with pytest.raises(MoveConflict):  # an entry is not the undo logged at move 3
        sessions.play(live.id, referee, "enter library library library", expected=3)


def test_seat_counts_and_overlong_game_ids_are_refused_with_their_reason(sessions):
    with pytest.raises(GameError) as seats:
        sessions.create("cthulhu-dice", {}, 1)
    assert seats.value.message == "Cthulhu Dice takes 2 to 6 seats, not 1" and seats.value.rule == "cthulhu-dice/setup"
    with pytest.raises(GameError) as long_id:
        sessions.get("y" * 101)
    assert long_id.value.message.startswith("No game has the id 'yyyy")
    assert long_id.value.message.endswith("(ids are short); new_game returns ids")


def test_a_move_played_here_wakes_this_processs_waiters_at_once(sessions):
    """play signals the game's waiters itself (the poll is only for other processes' moves)."""
    live, tokens = sessions.create("cthulhu-dice", {}, 2, seed=4)
    with sessions._waiting_on(live.id) as waiting:
        before = waiting.signals
        sessions.play(live.id, tokens[0], "roll")
        assert waiting.signals == before + 1


def test_playing_in_a_finished_game_is_refused_citing_the_end_rules(sessions):
    live, tokens = sessions.create("cthulhu-dice", {"goal": 1}, ["Ann", "Bob"], seed=4)
    while live.engine.outcome(live.state) is None:
        seat = live.to_move()[0]
        sessions.play(live.id, tokens[seat], "retreat" if live.state.phase == "decide" and live.state.stash >= 1 else "roll")
    with pytest.raises(GameError) as over:
        sessions.play(live.id, tokens[0], "roll")
    assert over.value.message.startswith(f"Game {live.id} is over: ") and over.value.rule == "cthulhu-dice/end"


def test_a_retried_entry_written_with_hyphens_is_the_entry_logged(sessions):
    """Faces may be written elder-sign or elder_sign; a retry spelt either way is the same entry, reported again."""
    live, tokens = sessions.create("cthulhu-dice", {"chance": "table"}, ["Ann", "Bob"], seed=4)
    referee = tokens[-1]
    sessions.play(live.id, tokens[0], "roll")
    sessions.play(live.id, referee, "enter library library library", expected=2)
    sessions.play(live.id, referee, "enter elder_sign", expected=3)
    again = sessions.play(live.id, referee, "enter elder-sign", expected=3)
    assert again.already and [s.ply for s in again.steps] == [3] and live.ply == 3


def test_a_dry_run_of_a_roll_shows_the_move_it_would_play(sessions):
    live, tokens = sessions.create("cthulhu-dice", {}, 2, seed=4)
    preview = sessions.play(live.id, tokens[0], "roll", dry_run=True)
    assert preview.dry_run and preview.steps[0].notation == "roll" and preview.steps[0].action == {"kind": "roll"}
    assert live.ply == 0


def test_an_entry_answers_with_the_state_after_it_and_what_the_table_owes_next(sessions):
    live, tokens = sessions.create("cthulhu-dice", {"chance": "table"}, ["Ann", "Bob"], seed=4)
    sessions.play(live.id, tokens[0], "roll")
    sessions.play(live.id, tokens[-1], "enter library library library")
    sessions.play(live.id, tokens[-1], "enter elder_sign")
    sessions.play(live.id, tokens[-1], "enter elder_sign")
    before = live.state
    entered = sessions.play(live.id, tokens[-1], "enter elder_sign")  # the roll is complete: it is played
    assert entered.state_after is live.state and entered.state_after is not before
    assert live.state.stash == 3
    sessions.play(live.id, tokens[0], "roll")
    moves = live.legal_moves(live.pending.seat)
    assert "rules://cthulhu-dice/table" in moves.note, "the table's rules are cited by their game"


def test_a_table_entry_the_database_refuses_is_forgotten_and_can_be_entered_again(tmp_path):
    """A storage failure leaves nothing behind: the game in memory is dropped and rebuilt from its log."""
    db = tmp_path / "locked.sqlite3"
    sessions = GameSessions(GameStore(db, busy_timeout_ms=50))
    live, tokens = sessions.create("cthulhu-dice", {"chance": "table"}, ["Ann", "Bob"], seed=4)
    sessions.play(live.id, tokens[0], "roll")
    other = sqlite3.connect(db, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(GameError) as err:
            sessions.play(live.id, tokens[-1], "enter library library library")
        assert err.value.kind == "storage_error"
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert live.id not in sessions._live, "whatever the failure left in memory is dropped"
    again = sessions.get(live.id)
    assert again.ply == 1 and again.pending is not None
    sessions.play(live.id, tokens[-1], "enter library library library")
    assert sessions.store.last_ply(live.id) == 2


def test_an_id_of_the_longest_length_is_looked_up_and_an_empty_token_is_asked_for(sessions):
    with pytest.raises(GameError) as unknown:
        sessions.get("y" * 100)  # MAX_ID characters: looked up, and not found
    assert unknown.value.message.endswith("; new_game returns ids, and list_games shows them")
    live, _ = sessions.create("cthulhu-dice", {}, 2, seed=1)
    with pytest.raises(BadToken) as missing:
        sessions.play(live.id, "", "roll")
    assert missing.value.message == "A seat token is required to act; new_game returned one token per seat"


def test_retried_cthulhu_wars_moves_are_reported_again_and_never_played_twice(sessions):
    """_same_moves reads a retried move again and compares it with the log: for Cthulhu Wars moves of several
    kinds (the round's direction, actions), each retry with the same number is reported, nothing is replayed."""
    live, tokens = sessions.create("cthulhu-wars", {}, 4, seed=1)
    retried = 0
    while retried < 8 and live.engine.outcome(live.state) is None:
        seat = live.to_move()[0]
        move = live.legal_moves(seat).groups[-1].moves[0].notation
        number = live.ply + 1
        assert not sessions.play(live.id, tokens[seat], move, expected=number).already
        again = sessions.play(live.id, tokens[seat], move, expected=number)
        assert again.already and again.notation == move and live.ply == number
        retried += 1
    assert retried == 8

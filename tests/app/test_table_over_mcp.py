"""Games refereed at a real table (option chance: table) through the MCP client: the referee token enters every
die and draw, entries are checked against what is possible, seat tokens cannot enter, undo is logged and a replay
from the log alone reproduces the game (rules_text <game>/table)."""

from __future__ import annotations

import random
import re

import pytest
from mcp import Client

from tabletop.app.server import build_server
from tabletop.sessions.manager import GameSessions
from tabletop.sessions.store import GameStore
from tabletop.watch.public import game_view

from .helpers import call, refused

pytestmark = pytest.mark.anyio


@pytest.fixture
def sessions(tmp_path):
    store = GameStore(tmp_path / "games.sqlite3")
    yield GameSessions(store)
    store.close()


@pytest.fixture
def server(sessions):
    return build_server(sessions)


async def new_table_game(client: Client, game: str, players: list[str], **options) -> tuple[str, list[str], str]:
    made = await call(client, "new_game", game=game, players=players, options={"chance": "table", **options})
    referee = made["seats"][-1]
    assert referee["seat"] == -1 and referee["role"] == "referee" and len(made["seats"]) == len(players) + 1
    return made["game_id"], [s["token"] for s in made["seats"][:-1]], referee["token"]


def options_of(moves: dict) -> list[dict]:
    return [m for g in moves["groups"] for m in g["options"]]


async def referee_plays_to_the_end(client: Client, game_id: str, referee: str, seed: int, prefer: tuple[str, ...] = (),
                                   limit: int = 6000) -> tuple[dict, int]:
    """The referee plays every seat and enters every result (a random possible one), until the game ends."""
    chooser, entries = random.Random(seed), 0
    for _ in range(limit):
        state = await call(client, "get_state", game_id=game_id)
        if state["outcome"]:
            return state, entries
        moves = await call(client, "legal_moves", game_id=game_id, token=referee, detail="full")
        options = options_of(moves)
        assert options, f"the referee has nothing to do at move {state['ply']}"
        preferred = [m for m in options if m["notation"].startswith(prefer)] if prefer else []
        pick = chooser.choice(preferred) if preferred and chooser.random() < 0.6 else chooser.choice(options)
        if pick["notation"].startswith("enter"):
            entries += 1
            assert state["to_move"] == [], "nobody moves while the table is awaited"
        move = {"move": pick["notation"]} if chooser.random() < 0.5 else {"actions": [pick["action"]]}
        await call(client, "apply_move", game_id=game_id, token=referee, **move)
    raise AssertionError("the game did not end")


def same_as_replay(sessions: GameSessions, game_id: str) -> None:
    """The live game equals one rebuilt from its seed and log alone (what any other server process would see)."""
    live = sessions.get(game_id)
    fresh = sessions._load(game_id)
    assert live.engine.view(fresh.state, None) == live.engine.view(live.state, None)
    assert (fresh.pending and fresh.pending.request) == (live.pending and live.pending.request)
    assert fresh.table.floor == live.table.floor and len(fresh.table.effective) == len(live.table.effective)


async def test_cthulhu_dice_at_the_table_to_the_end(server, sessions):
    async with Client(server) as client:
        game_id, tokens, referee = await new_table_game(client, "cthulhu-dice", ["Ann", "Bob"], goal=6)
        state, entries = await referee_plays_to_the_end(client, game_id, referee, seed=1, prefer=("retreat",))
        assert state["outcome"]["reason"] and entries > 10
        log = await call(client, "history", game_id=game_id, limit=200)
        assert any(m["move"].startswith("enter ") for m in log["moves"])
        same_as_replay(sessions, game_id)


async def test_cthulhu_dice_entries_are_checked_and_only_the_referee_enters(server, sessions):
    async with Client(server) as client:
        game_id, tokens, referee = await new_table_game(client, "cthulhu-dice", ["Ann", "Bob"],
                                                        bag={"library": 8, "museum": 4, "tomb": 1})
        played = await call(client, "apply_move", game_id=game_id, token=tokens[0], move="roll")
        assert played["to_move"] == [] and "Awaiting the table: draws 3 dice from the bag" in played["played"][0]["events"][0]
        moves = await call(client, "legal_moves", game_id=game_id, token=referee)
        assert "Ann: draws 3 dice from the bag: enter 3 of library 8, museum 4, tomb 1" == moves["groups"][0]["title"]
        assert "bad_token" in await refused(client, "apply_move", game_id=game_id, token=tokens[0], move="enter library library library")
        assert "not_your_turn" in await refused(client, "apply_move", game_id=game_id, token=tokens[0], move="retreat")
        assert "is not left in the bag" in await refused(client, "apply_move", game_id=game_id, token=referee, move="enter tomb tomb library")
        assert "is not one of them" in await refused(client, "apply_move", game_id=game_id, token=referee, move="enter skull library library")
        assert "2 given, 3 needed" in await refused(client, "apply_move", game_id=game_id, token=referee, move="enter library library")
        assert (await call(client, "get_state", game_id=game_id))["ply"] == 1, "refusals change nothing"
        await call(client, "apply_move", game_id=game_id, token=referee, move="enter tomb museum library")
        asked = await call(client, "legal_moves", game_id=game_id, token=referee)
        assert asked["groups"][0]["title"] == "Ann: rolls a tomb die: enter one of elder_sign, clue, tentacle"
        assert "is not one of them" in await refused(client, "apply_move", game_id=game_id, token=referee, move="enter 7")
        for face in ("elder_sign", "elder-sign", "tentacle"):
            await call(client, "apply_move", game_id=game_id, token=referee, move=f"enter {face}")
        full = await call(client, "get_state", game_id=game_id, token=referee, detail="full")
        assert [(d["die"], d["face"]) for d in full["view"]["last_roll"]] == [
            ("tomb", "elder_sign"), ("museum", "elder_sign"), ("library", "tentacle")]
        assert full["view"]["bag"] == {"library": 7, "museum": 3, "tomb": 0} and full["your_turn"]
        same_as_replay(sessions, game_id)


async def test_undo_goes_back_to_the_last_entry_and_replays_the_same(server, sessions):
    async with Client(server) as client:
        game_id, tokens, referee = await new_table_game(client, "cthulhu-dice", ["Ann", "Bob"])
        assert "bad_token" in await refused(client, "apply_move", game_id=game_id, token=tokens[0], move="undo")
        for move in ("roll", "enter library library library", "enter clue", "enter clue", "enter clue"):
            await call(client, "apply_move", game_id=game_id, token=referee, move=move)
        before_retreat = (await call(client, "get_state", game_id=game_id, detail="full"))["view"]
        await call(client, "apply_move", game_id=game_id, token=referee, move="retreat")
        took = await call(client, "apply_move", game_id=game_id, token=referee, move="undo")
        assert "('retreat') is taken back" in took["played"][0]["events"][0]
        assert (await call(client, "get_state", game_id=game_id, detail="full"))["view"] == before_retreat
        await call(client, "apply_move", game_id=game_id, token=referee, move="undo")  # the last face entered
        asked = await call(client, "legal_moves", game_id=game_id, token=referee)
        assert asked["groups"][0]["title"].startswith("Ann: rolls a library die")
        assert "no further" in await refused(client, "apply_move", game_id=game_id, token=referee, move="undo")
        same_as_replay(sessions, game_id)
        await call(client, "apply_move", game_id=game_id, token=referee, move="enter elder_sign")
        view = (await call(client, "get_state", game_id=game_id, detail="full"))["view"]
        assert [d["face"] for d in view["last_roll"]] == ["clue", "clue", "elder_sign"]
        log = await call(client, "history", game_id=game_id)
        assert [m["move"] for m in log["moves"]].count("undo") == 2, "undo is appended, nothing is deleted"
        assert len(log["moves"]) == 9
        same_as_replay(sessions, game_id)


async def test_game_of_war_first_player_die_from_the_table_then_to_the_end(server, sessions):
    async with Client(server) as client:
        game_id, tokens, referee = await new_table_game(client, "game-of-war", ["Ann", "Bob"], max_turns=40)
        for move in ("opening default", "commit", "opening default", "commit"):
            await call(client, "apply_move", game_id=game_id, token=referee, move=move)
        asked = await call(client, "legal_moves", game_id=game_id, token=referee)
        assert asked["groups"][0]["title"] == "Bob (South): the die for the first player (North on 1-3): enter a face (1-6)"
        assert "1-6" in await refused(client, "apply_move", game_id=game_id, token=referee, move="enter 7")
        done = await call(client, "apply_move", game_id=game_id, token=referee, move="enter 5")
        assert "The die shows 5: South moves first." in done["played"][0]["events"][-1] and done["to_move"] == [1]
        state, _ = await referee_plays_to_the_end(client, game_id, referee, seed=3, prefer=("attack",))
        assert state["outcome"]["reason"]
        same_as_replay(sessions, game_id)


async def test_a_table_game_that_would_roll_at_set_up_is_refused_with_the_way_out(client: Client):
    shown = await refused(client, "new_game", game="cthulhu-wars", players=["A", "B", "C"],
                          options={"chance": "table", "factions": ["black-goat", "crawling-chaos", "yellow-sign"]})
    assert "bad_options" in shown and "the faction that plays first" in shown
    shown = await refused(client, "new_game", game="game-of-war", players=["A", "B"],
                          options={"chance": "table", "opening": "default"})
    assert "the die for the first player" in shown


async def elder_sign_entry_is_told_only_to_its_owner(client: Client, game_id: str, tokens: list[str], referee: str,
                                                     entered: str) -> dict:
    """The entry of a hidden Elder Sign shows its value to the seat it was drawn for and the referee only."""
    last = (await call(client, "history", game_id=game_id, token=referee, limit=1, after=0))["ply"]
    row = (await call(client, "history", game_id=game_id, token=referee, after=last - 1, limit=1))["moves"][0]
    assert row["move"] == entered and row["action"]["secret"] is True
    for token in (None, *tokens):
        seen = (await call(client, "history", game_id=game_id, token=token, after=last - 1, limit=1))["moves"][0]
        if token is not None and tokens.index(token) == row["seat"]:
            assert seen["move"] == entered, "the owner reads its own Elder Sign"
        else:
            assert seen["move"] == "enter (hidden)" and seen["action"]["enter"] == ["hidden"], (token, seen)
    return {"ply": last, "move": entered}


#: The Ancients and every piece of neutral material switched on (rules_text cthulhu-wars/ancients, high-priests,
#: neutral-monsters, neutral-spellbooks, independent-great-old-ones): their decisions and draws reach the table like
#: the core's.
EVERY_NEUTRAL = {"high_priests": True, "neutral_ghast": True, "neutral_gug": True, "neutral_shantak": True,
                 "neutral_star_vampire": True, "neutral_spellbooks": True, "igoo_byatis": True, "igoo_abhoth": True,
                 "igoo_daoloth": True, "igoo_nyogtha": True}
#: Moves of the Independent Great Old Ones, played whenever they are offered (random play seldom Awakens one).
INDEPENDENT_MOVES = ("awaken byatis", "awaken abhoth", "awaken daoloth", "awaken nyogtha", "filth", "forgetfulness",
                     "cosmic-unity", "from-below")


@pytest.mark.parametrize("map_options, seed", [
    ({}, 7),
    ({"map": "dreamlands", "factions": ["sleeper", "great-cthulhu", "crawling-chaos"]}, 5),
    ({"factions": ["ancients", "great-cthulhu", "yellow-sign", "crawling-chaos"], **EVERY_NEUTRAL}, 15),
])
async def test_cthulhu_wars_at_the_table_to_the_end(server, sessions, map_options, seed):
    async with Client(server) as client:
        players = ["Ann", "Bob", "Cy", "Di"][:len(map_options.get("factions", "four"))]
        game_id, tokens, referee = await new_table_game(client, "cthulhu-wars", players, **map_options)
        checked, secret, played = False, None, set()
        chooser = random.Random(seed)
        for _ in range(6000):
            state = await call(client, "get_state", game_id=game_id)
            if state["outcome"]:
                break
            moves = await call(client, "legal_moves", game_id=game_id, token=referee, detail="full")
            options = options_of(moves)
            title = moves["groups"][0]["title"]
            if title.endswith("(1-6)") and not checked:
                assert "1-6" in await refused(client, "apply_move", game_id=game_id, token=referee, move="enter 0" + " 1" * 40)
                assert "bad_token" in await refused(client, "apply_move", game_id=game_id, token=tokens[0], move=options[0]["notation"])
                checked = True
            fights = [m for m in options if m["notation"].startswith(("battle", "summon", "gate", "awaken"))]
            independents = [m for m in options if m["notation"].startswith(INDEPENDENT_MOVES)]
            pick = (chooser.choice(independents) if independents and chooser.random() < 0.8
                    else chooser.choice(fights) if fights and chooser.random() < 0.5 else chooser.choice(options))
            if "battle" in pick["notation"] and " vs " in pick["notation"]:
                area, defender = pick["notation"].split()[1], pick["notation"].split(" vs ")[1]
                if defender in ("bhole", "zoogs"):
                    odds = await call(client, "battle_odds", game_id=game_id, area=area, defender=defender,
                                      attacker=(await call(client, "get_state", game_id=game_id, token=referee, detail="full"))["view"]["factions"][state["to_move"][0]]["faction"])
                    assert odds["odds"]
            await call(client, "apply_move", game_id=game_id, token=referee, move=pick["notation"])
            played.add(pick["notation"].split()[0])
            if "an Elder Sign drawn for" in title and secret is None:
                secret = await elder_sign_entry_is_told_only_to_its_owner(client, game_id, tokens, referee, pick["notation"])
        else:
            raise AssertionError("the game did not end")
        assert checked and state["outcome"]["reason"]
        if "high_priests" in map_options:
            assert {"buy-card", "oath", "an-dematerialize", "mao-ceremony", "filth"} <= played, sorted(played)
        assert secret is not None, "the game drew no Elder Sign at the table"
        told = await call(client, "history", game_id=game_id, after=secret["ply"] - 1, limit=1)
        assert told["moves"][0]["move"] == secret["move"], "once the game is over the value is told to everyone"
        events = " ".join(e for m in (await call(client, "history", game_id=game_id, limit=200))["moves"] for e in m["events"])
        assert "Awaiting the table" in events and "battle dice in" in events
        same_as_replay(sessions, game_id)


async def test_a_retried_entry_with_expected_ply_is_not_entered_twice(server, sessions):
    async with Client(server) as client:
        game_id, tokens, referee = await new_table_game(client, "cthulhu-dice", ["Ann", "Bob"])
        await call(client, "apply_move", game_id=game_id, token=referee, move="roll", expected_ply=1)
        first = await call(client, "apply_move", game_id=game_id, token=referee, move="enter tomb museum library", expected_ply=2)
        again = await call(client, "apply_move", game_id=game_id, token=referee, move="enter tomb museum library", expected_ply=2)
        assert again["already_played"] and again["played"] == first["played"]
        assert "conflict" in await refused(client, "apply_move", game_id=game_id, token=referee, move="enter tomb tomb library", expected_ply=2)
        assert (await call(client, "get_state", game_id=game_id))["ply"] == 2


async def test_two_servers_on_one_database_share_the_pending_chance(tmp_path):
    """The fleet's rule: no process keeps what another needs. One server logs the move that needs dice, the other
    asks for them, takes the entry and an undo; the first catches up from the log alone."""
    stores = [GameStore(tmp_path / "shared.sqlite3") for _ in range(2)]
    try:
        one, two = (GameSessions(s) for s in stores)
        async with Client(build_server(one)) as first, Client(build_server(two)) as second:
            game_id, tokens, referee = await new_table_game(first, "cthulhu-dice", ["Ann", "Bob"])
            await call(first, "apply_move", game_id=game_id, token=tokens[0], move="roll")
            asked = await call(second, "legal_moves", game_id=game_id, token=referee)
            assert asked["groups"][0]["title"].startswith("Ann: draws 3 dice from the bag")
            await call(second, "apply_move", game_id=game_id, token=referee, move="enter library library tomb")
            await call(second, "apply_move", game_id=game_id, token=referee, move="enter clue")
            await call(first, "apply_move", game_id=game_id, token=referee, move="undo")
            again = await call(second, "legal_moves", game_id=game_id, token=referee)
            assert again["groups"][0]["title"] == "Ann: rolls a library die: enter one of elder_sign, clue, tentacle"
            for server_sessions in (one, two):
                same_as_replay(server_sessions, game_id)
            assert one.get(game_id).engine.view(one.get(game_id).state, None) == two.get(game_id).engine.view(two.get(game_id).state, None)
    finally:
        for s in stores:
            s.close()


async def test_the_dice_calculators_answer_in_a_table_game_as_in_a_server_game(server, sessions):
    """Chance from the table changes where results come from, not the game's rules: the advice and the odds of
    a table game are those of the same position with the same rules (rules_text cthulhu-dice/advice)."""
    async with Client(server) as client:
        game_id, tokens, referee = await new_table_game(client, "cthulhu-dice", ["Ann", "Bob"])
        await call(client, "apply_move", game_id=game_id, token=tokens[0], move="roll")
        for entry in ("enter library museum tomb", "enter clue", "enter elder_sign", "enter clue"):
            await call(client, "apply_move", game_id=game_id, token=referee, move=entry)
        advice = await call(client, "cthulhu_dice_advice", game_id=game_id, token=tokens[0])
        described = await call(client, "cthulhu_dice_advice", position={
            "scores": [0, 0], "seat": 0, "stash": 1, "clues": {"library": 1, "tomb": 1}, "elder_signs": {"museum": 1}})
        assert advice["status"] == "ready" and advice["recommended"] == described["recommended"]
        assert advice["win_if_continue"] == described["win_if_continue"] and advice["win_if_retreat"] == described["win_if_retreat"]
        odds = await call(client, "cthulhu_dice_odds", clues={"library": 1, "tomb": 1}, elder_signs={"museum": 1})
        assert abs(sum(r["probability"] for r in odds["results"]) - 1) < 1e-9


# ---- what each token is shown is what it may play (issue 40) -------------------------------------------------
def listed(answer: dict) -> list[str]:
    """The moves an answer lists in its structured content (``legal`` of most tools, ``groups`` of legal_moves)."""
    groups = answer["groups"] if "groups" in answer else answer.get("legal")
    return [m for g in groups or [] for m in g["moves"]]


async def answered(client: Client, tool: str, **args) -> tuple[dict, str]:
    result = await client.call_tool(tool, args)
    assert not result.is_error, result.content[0].text
    return result.structured_content, result.content[0].text


def no_seat_entered(text: str) -> None:
    """No text says a seat played or chose an entry of the table: the referee enters ("the referee entered ...")."""
    assert "played 'enter" not in text, text
    for line in text.split("\n"):
        head = line.split(" — ")[0]
        assert not (re.match(r"\d+\. .*: enter\b", head) and not head.split(". ", 1)[1].startswith("the referee ")), line


async def dry_runs_accept(client: Client, game_id: str, token: str, moves: list[str], where: str) -> None:
    for move in moves:
        result = await client.call_tool("apply_move", {"game_id": game_id, "token": token, "move": move, "dry_run": True})
        assert not result.is_error, f"{where} listed '{move}', which its token cannot play: {result.content[0].text}"
        no_seat_entered(result.content[0].text)


async def each_token_sees_what_it_may_play(client: Client, game_id: str, tokens: list[str], referee: str,
                                           pending: bool, chooser: random.Random, sample: int) -> None:
    """For every seat's token and the referee's: the moves get_state, legal_moves and wait_for_turn list are accepted
    by a dry run with that token (all of them while the table is awaited, else a sample); the texts list moves
    ("Your moves") exactly when the structured answers do; while the table is awaited, a seat is listed nothing and
    told it waits for the referee, and the referee is listed the entries, the same on every call."""
    for who, token in [*((f"seat {i}", t) for i, t in enumerate(tokens)), ("referee", referee)]:
        shown = [
            ("get_state", *await answered(client, "get_state", game_id=game_id, token=token)),
            ("legal_moves", *await answered(client, "legal_moves", game_id=game_id, token=token)),
            ("wait_for_turn", *await answered(client, "wait_for_turn", game_id=game_id, token=token, timeout_seconds=0)),
        ]
        for tool, answer, text in shown:
            assert ("Your moves" in text) == bool(listed(answer)), (who, tool, text)
        moves = sorted({m for _, answer, _ in shown for m in listed(answer)})
        if pending and who == "referee":
            assert moves and all(m.startswith("enter") for m in moves), moves
            again = await call(client, "legal_moves", game_id=game_id, token=token, detail="full")
            assert listed(again) == listed(shown[1][1]), "the same request shows the same example entry on every call"
        elif pending:
            assert moves == [], f"{who} is listed {moves} while only the referee may enter"
            assert all("referee" in text for _, _, text in shown), shown
        if not pending and len(moves) > sample:
            moves = chooser.sample(moves, sample)
        await dry_runs_accept(client, game_id, token, moves, f"{who}'s get_state/legal_moves/wait_for_turn")


async def log_names_the_referee(client: Client, sessions: GameSessions, game_id: str, tokens: list[str], referee: str) -> None:
    """history (for every token, and the public) and the spectator site's log say the referee entered each result."""
    for token in (None, *tokens, referee):
        after = 0
        while after is not None:
            page, text = await answered(client, "history", game_id=game_id, token=token, after=after, limit=200)
            no_seat_entered(text)
            entries = [m for m in page["moves"] if m["move"].startswith("enter")]
            assert text.count(". the referee entered ") == len(entries), text
            after = page["next_cursor"]
    log = game_view(sessions, sessions.get(game_id))["log"]
    assert not [line for line in log if line["move"].startswith("enter ")], "the spectator's log names the referee"
    assert any(line["who"] == "referee" and line["move"].startswith("entered ") for line in log)


@pytest.mark.parametrize("game, players, options, setup, seed, pendings", [
    ("cthulhu-dice", ["Ann", "Bob"], {"goal": 6}, (), 11, 30),
    ("game-of-war", ["Ann", "Bob"], {"max_turns": 40}, ("opening default", "commit", "opening default", "commit"), 12, 1),
    ("cthulhu-wars", ["Ann", "Bob", "Cy", "Di"], {}, (), 13, 20),
])
async def test_every_token_is_listed_only_moves_it_may_play_and_the_log_names_the_referee(
        server, sessions, game, players, options, setup, seed, pendings):
    """Issue 40: a seat was listed the referee's entry as its own move (and refused it), the example entry changed on
    every call, and the log said the seat played it. Random games, each move played by its seat's token or the
    referee's; at every pending request every token's listings are tried, and every apply_move answer's too."""
    async with Client(server) as client:
        game_id, tokens, referee = await new_table_game(client, game, players, **options)
        for move in setup:
            await call(client, "apply_move", game_id=game_id, token=referee, move=move)
        chooser, seen, played = random.Random(seed), 0, 0
        while (seen < pendings or played < 30) and played < 600:
            state = await call(client, "get_state", game_id=game_id)
            if state["outcome"]:
                break
            pending = state["to_move"] == []
            seen += pending
            if pending or played % 15 == 0:
                await each_token_sees_what_it_may_play(client, game_id, tokens, referee, pending, chooser, sample=3)
            if pending:
                token = referee
            else:
                seat = chooser.choice(state["to_move"])
                token = referee if seat == state["to_move"][0] and chooser.random() < 0.5 else tokens[seat]
            options_now = listed(await call(client, "legal_moves", game_id=game_id, token=token))
            fights = [m for m in options_now if m.startswith(("battle", "summon", "gate", "awaken", "attack", "roll"))]
            move = chooser.choice(fights) if fights and chooser.random() < 0.6 else chooser.choice(options_now)
            answer, text = await answered(client, "apply_move", game_id=game_id, token=token, move=move)
            played += 1
            no_seat_entered(text)
            if move.startswith("enter"):
                assert text.startswith("The referee entered "), text
            next_moves = listed(answer)
            waits = answer["to_move"] == [] and not answer["outcome"]
            if waits and token != referee:
                assert next_moves == [] and "Your moves" not in text and "Only the referee enters" in text, text
            if not waits and len(next_moves) > 3:
                next_moves = chooser.sample(next_moves, 3)
            await dry_runs_accept(client, game_id, token, next_moves, f"apply_move's answer to '{move}'")
        assert seen >= min(pendings, 1), f"only {seen} requests for the table in {played} moves"
        await log_names_the_referee(client, sessions, game_id, tokens, referee)
        same_as_replay(sessions, game_id)

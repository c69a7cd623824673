# games.model.read (games/model_json.py): the model dict json.load gives for a valid model, with its
# short strings shared so that a name used 500 times is stored once (the boot check's memory, issue 9
# fault 2, docs/games.md). What it refuses: tests/device/test_games_model_json.py.
import gc
import os


def test_read_gives_what_json_gives():
    # the dict of a valid model is json's: escapes, non-ASCII text, long strings, a backslash
    # before a quote, negative integers, true and null included
    import json

    from devtest import rmtree, tmpdir

    from games.model import read

    d = tmpdir("read")
    try:
        text = ('{"a\\"b": ["WILD", "WILD", "\\u00e9t\\u00e9", "\u00e9t\u00e9", "x\\\\", "x\\\\"],'
                ' "long": "%s", "n": [1, -2, 0, true, null, false], "": ""}' % ("y" * 300))
        path = d + "/m.json"
        with open(path, "w") as f:
            f.write(text)
        got = read(path)
        assert got == json.loads(text)
        assert got["a\"b"][2] == got["a\"b"][3] == "\u00e9t\u00e9" and got["a\"b"][4] == "x\\"
        for name in os.listdir("games/models"):
            path = "games/models/" + name
            with open(path) as f:
                assert read(path) == json.load(f), name
    finally:
        rmtree(d)


def test_read_shares_the_names():
    # MicroPython only (CPython has no fixed heap to measure): json.load makes a fresh copy of a
    # name at each use unless the name is already interned; aurore-88 held 52 KB that way, 18 KB
    # read by games.model.read. Names made up here, so no earlier test has interned them.
    if not hasattr(gc, "mem_alloc"):
        return
    import json

    from devtest import rmtree, tmpdir

    from games.model import read

    tag = "".join("%02x" % b for b in os.urandom(4))
    names = ['"S%d_%s"' % (i, tag) for i in range(11)]
    # shaped like a model: strips inside objects inside an array, after keys and texts whose
    # brackets and escaped quotes must not be taken for the file's own
    strips = ",".join('{"strip": [%s]}' % ",".join(names[(i + k) % 11] for i in range(50)) for k in range(10))
    text = '{"t]{": "[x\\"]", "reels": [%s]}' % strips
    d = tmpdir("share")
    try:
        path = d + "/reels.json"
        with open(path, "w") as f:
            f.write(text)
        gc.collect()
        a = gc.mem_alloc()
        plain = json.loads(text)
        gc.collect()
        b = gc.mem_alloc()
        plain = None
        gc.collect()
        c = gc.mem_alloc()
        shared = read(path)
        gc.collect()
        e = gc.mem_alloc()
        assert shared["t]{"] == '[x"]' and plain is None
        assert len(shared["reels"]) == 10 and shared["reels"][0]["strip"][12] == "S1_" + tag
        # measured: 38 KB with the 500 copies, 6 KB (the lists and dicts) with the shared names
        assert (e - c) * 3 < (b - a), (b - a, e - c)
    finally:
        rmtree(d)

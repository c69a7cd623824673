"""The format of each shipped model, from the head of its file: for the boot-memory tests, which
list the models of one kind in a board-sized heap. Reading every model whole to learn its format
(games/model_json.py interns a model's short names, and they stay) left that heap in pieces: the
blackjack test then ran out of memory listing its models in a fresh clone at 192K (make test s38a;
in that checkout it passed at 176K and 196K, not at 184K or 192K)."""
import os

MODELS = "games/models"
HEAD = 160  # bytes: every shipped model names its format first; one that does not is named (ValueError)


def model_format(path):
    with open(path) as f:
        head = f.read(HEAD)
    k = head.find('"format"')
    a = head.find('"', head.find(":", k) + 1) if k >= 0 else -1
    b = head.find('"', a + 1) if a >= 0 else -1
    if b < 0:
        raise ValueError("%s: no \"format\" in its first %d bytes" % (path, HEAD))
    return head[a + 1:b]


def models_of(formats):
    """The ids of the shipped models whose format is in `formats`, sorted."""
    return sorted(n[:-5] for n in os.listdir(MODELS) if model_format(MODELS + "/" + n) in formats)

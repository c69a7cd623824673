# The card-poker table games by model format (by-law s. 63-67.87): which engine plays a model. The
# engines are imported only when asked for, so a cabinet offering one game keeps one in its heap.
FORMATS = ("jeton-three-card/1", "jeton-caribbean/1", "jeton-let-it-ride/1", "jeton-red-dog/1", "jeton-war/1",
           "jeton-crazy-four/1", "jeton-boston/1", "jeton-three-five-seven/1")
# what one round's record holds, per format: (cards dealt, decisions at most), for sizing a recall
# record without importing the engine (tests/device/test_games_cardtable.py checks them against it)
RECORD = {"jeton-three-card/1": (6, 1), "jeton-caribbean/1": (10, 1), "jeton-let-it-ride/1": (5, 2),
          "jeton-red-dog/1": (3, 1), "jeton-war/1": (10, 1), "jeton-crazy-four/1": (10, 1),
          "jeton-boston/1": (10, 1), "jeton-three-five-seven/1": (7, 1)}


def engine(fmt):
    """The engine class of a model format; ValueError naming the formats for any other."""
    if fmt == "jeton-three-card/1":
        from games.three_card import ThreeCardGame

        return ThreeCardGame
    if fmt == "jeton-caribbean/1":
        from games.caribbean import CaribbeanGame

        return CaribbeanGame
    if fmt == "jeton-let-it-ride/1":
        from games.let_it_ride import LetItRideGame

        return LetItRideGame
    if fmt == "jeton-red-dog/1":
        from games.red_dog import RedDogGame

        return RedDogGame
    if fmt == "jeton-war/1":
        from games.war import WarGame

        return WarGame
    if fmt == "jeton-crazy-four/1":
        from games.crazy_four import CrazyFourGame

        return CrazyFourGame
    if fmt == "jeton-boston/1":
        from games.boston import BostonGame

        return BostonGame
    if fmt == "jeton-three-five-seven/1":
        from games.three_five_seven import ThreeFiveSevenGame

        return ThreeFiveSevenGame
    raise ValueError("no card-table game of format %r (%s)" % (fmt, ", ".join(FORMATS)))


def load(path):
    """The game of a model file (games.model.read: the strict reader)."""
    from games.model import read

    model = read(path)
    if not isinstance(model, dict):
        raise ValueError("model must be an object")
    return engine(model.get("format"))(model)

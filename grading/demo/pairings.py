"""How the demo federation's events are paired: round robins by the circle method, and a simple
Swiss."""


def round_robin(players):
    """The circle method: every player meets every other once."""
    field = list(players) + ([None] if len(players) % 2 else [])
    rounds = []
    for round_number in range(len(field) - 1):
        pairs = []
        for board in range(len(field) // 2):
            a, b = field[board], field[-1 - board]
            pair = (a, b) if (board + round_number) % 2 == 0 else (b, a)
            if pair[0] is not None and pair[1] is not None:
                pairs.append(pair)
        rounds.append(pairs)
        field = [field[0], field[-1]] + field[1:-1]
    return rounds


def swiss(rng, players, rounds):
    """A simple Swiss: pair neighbours by score, nobody twice; the odd one out gets a bye."""
    scores = {player.pk: 0.0 for player in players}
    met = set()
    pairings = []
    for _ in range(rounds):
        order = sorted(players, key=lambda player: (-scores[player.pk], rng.random()))
        pairs = []
        while len(order) > 1:
            first = order.pop(0)
            partner = next((other for other in order if (first.pk, other.pk) not in met), order[0])
            order.remove(partner)
            met.update({(first.pk, partner.pk), (partner.pk, first.pk)})
            pair = (first, partner) if rng.random() < 0.5 else (partner, first)
            pairs.append(pair)
            scores[first.pk] += rng.choice([0, 0.5, 1])
            scores[partner.pk] += rng.choice([0, 0.5, 1])
        if order:
            pairs.append((order[0], None))
        pairings.append(pairs)
    return pairings

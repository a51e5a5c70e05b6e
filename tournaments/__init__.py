"""Tournaments: clubs, pairs, rounds, boards, games and hands, with the services that change them."""

"""Quatrefoil's team with private cards: cases, an exact evaluator, a policy, a bound.

``cases`` lists the deal cases a figure averages over; ``evaluate`` plays any joint
policy (each seat's action a function of the public history and its own cards) over
every case; ``policy`` is the public-agent policy behind the ``optimal`` bot; ``bound``
proves a lower bound on what any team can reach.
"""

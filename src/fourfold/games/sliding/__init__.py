"""Machinery shared by Ice Dao and classic Dao: a piece slides as far as it goes.

``game`` holds ``SlidingGame`` (notation, refusals, actions, repetition); ``geometry``
the square boards and directions; ``moves`` the ``FROM-TO``/``pass`` moves;
``positions`` the rank-by-rank layout strings; ``limits`` repetition and length caps.
"""

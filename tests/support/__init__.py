"""Helpers shared by the test modules (no tests here).

Test modules import their helpers from this package, never from one another:

* ``wait``: ``wait_until``, waiting on a condition with a deadline (never a bare sleep);
* ``numba_lock``: the workers, and the processes tests start (``numba_site``), compile
  each cold numba kernel once between them;
* ``run_async``: a coroutine run to its end in a thread of its own (a Playwright test
  before may hold a running event loop in the worker's main thread);
* ``server``: real ``fourfold serve`` processes, PostgreSQL, Redis and nginx on
  loopback;
* ``browser``: one shared headless Chromium; ``browser_app``: the browser app served,
  pages that fail on console errors;
* ``conformance``: the checks every game passes, built-in or a plugin;
* ``gamecases``: every playable game configuration; ``leak_harness``: the hidden
  information checks; ``svg_cases``: positions to draw; ``playscript``: a scripted
  terminal; ``quatrefoil_team_replay``: the independent check of the team solver;
* ``values``, ``freeform``, ``placement_solver``, ``sliding_solver``, ``terminal``:
  brute-force values, positions and drivers shared by the rules, bot, solver and
  terminal tests.

The ``tests`` folder is on ``sys.path`` when pytest runs (its rootdir conftest), so
``from support.wait import wait_until`` works from any test module.
"""

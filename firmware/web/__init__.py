"""The table's web stack (aiohttp, the `sim` extra): who may ask what, and how long they may
take. `guard` checks every request (Host, Origin, token, JSON bodies) as middleware;
`site` serves an application with header and idle timeouts and a connection cap.

    app = guard.application(token=None)        # then app.router.add_post(...)
    runner = web.AppRunner(app); await runner.setup()
    await site.Site(runner, "127.0.0.1", 8080).start()

The simulator (`firmware.sim.server`) is the first user; docs/simulator.md says what the
checks guarantee.
"""

"""Published results (docs/adr/0013-published-results.md): the public pages and their JSON rendered to files
on every change, served by Caddy without Python (Django serves the same files under ``make run``).

It sits above ``api`` and ``web`` (it calls their views in-process, so a file is byte for byte what Django
serves) and nothing imports it (.importlinter). Modules: ``files`` (addresses to files, atomic writes,
ETag-safe modification times), ``pages`` (which addresses an event has), ``render`` (a view called
in-process), ``publish`` (the render of an event, merged and locked; the sweep; withdrawal), ``tasks``
(Celery), ``middleware`` (Django serving the files), ``caddy`` (a Caddy on a free port for tests and
benchmarks).
"""

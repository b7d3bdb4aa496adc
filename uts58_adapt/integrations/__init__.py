"""Upgrades for linkifiers that produce HTML or Markdown output (issue 10).

One module per library: ``bleach`` (used by ``uts58_adapt.wrap(Linker)``), ``django``
(an app with a ``{% load uts58 %}`` template library), ``jinja2``, ``mistune``,
``magiclink``, ``docutils`` (a reST ``Parser``) and ``sphinx`` (a Sphinx extension, MyST's
``linkify`` included).  Each imports its library only when it is itself imported; importing
``uts58_adapt`` never imports any of them.
"""

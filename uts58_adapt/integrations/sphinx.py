"""A Sphinx extension: UTS #58 standalone links in reST, and in MyST's ``linkify``.

Use, in ``conf.py``: ``extensions = ["uts58_adapt.integrations.sphinx"]``.

- reST: the extension registers :class:`RSTParser`, Sphinx's own reST parser with the
  inliner of :mod:`uts58_adapt.integrations.docutils` (a new one per document).  The
  documents, and the translated messages of an i18n build (which Sphinx parses with the
  registered reST parser), get the standalone links of that module.
- MyST: when ``myst_parser`` is loaded, with ``"linkify"`` in ``myst_enable_extensions``,
  its markdown-it parser's linkify-it instance is replaced by ``uts58_adapt.wrap()`` of
  it, in the documents this application reads (a subclass of MyST's parser is registered
  for its file types; other Sphinx applications in the process are not touched).

Two options in ``conf.py``: ``uts58_strict_hosts`` (§1.4's registrable-domain rule) and
``uts58_reject_risky`` (§8's checks: ``True`` or ``"browser"``), both off by default.
"""

from __future__ import annotations

import contextvars
from importlib import metadata
from typing import TYPE_CHECKING, Any

import sphinx.parsers
from docutils import nodes

from ..refine.risk_profile import RejectRisky, reject_risky_value
from .docutils import Inliner

if TYPE_CHECKING:
    from sphinx.application import Sphinx

__all__ = ["RSTParser", "setup"]


def _options(document: nodes.document) -> tuple[bool, RejectRisky]:
    """``uts58_strict_hosts`` and ``uts58_reject_risky`` of the build that reads ``document``."""
    env = getattr(document.settings, "env", None)
    config = getattr(env, "config", None)
    strict = bool(getattr(config, "uts58_strict_hosts", False))
    return strict, reject_risky_value(getattr(config, "uts58_reject_risky", False))


class RSTParser(sphinx.parsers.RSTParser):
    """Sphinx's reST parser whose standalone URIs and emails follow UTS #58."""

    def parse(self, inputstring: Any, document: nodes.document) -> None:
        # docutils' init_customizations appends to the inliner's dispatch list: one inliner per document
        strict, risky = _options(document)
        self.inliner = Inliner(strict_hosts=strict, reject_risky=risky)
        super().parse(inputstring, document)


#: Set while a document of an application with this extension is parsed by MyST.
_UPGRADE: contextvars.ContextVar[tuple[bool, RejectRisky] | None] = contextvars.ContextVar(
    "uts58_myst_upgrade", default=None
)


def _install_myst_hook() -> type | None:
    """MyST's Sphinx parser subclassed so that its linkify-it instance is wrapped, or None
    without ``myst_parser``.  MyST builds a markdown-it parser per document
    (``myst_parser.parsers.sphinx_.create_md_parser``): that name is wrapped once, and
    the wrapper wraps linkify-it only inside :data:`_UPGRADE`."""
    try:
        from myst_parser.parsers import sphinx_ as myst_sphinx
    except ImportError:
        return None
    original = myst_sphinx.create_md_parser  # type: ignore[attr-defined]
    if not getattr(original, "_uts58", False):

        def create_md_parser(*args: Any, **kwargs: Any) -> Any:
            md = original(*args, **kwargs)
            options = _UPGRADE.get()
            linkify = getattr(md, "linkify", None)
            if options is not None and linkify is not None:
                from ..wrapping import wrap

                md.linkify = wrap(linkify, strict_hosts=options[0], reject_risky=options[1])
            return md

        create_md_parser._uts58 = True  # type: ignore[attr-defined]
        myst_sphinx.create_md_parser = create_md_parser  # type: ignore[attr-defined]

    class MystParser(myst_sphinx.MystParser):
        """MyST's parser whose ``linkify`` links follow UTS #58 (``uts58_adapt.wrap``)."""

        def parse(self, inputstring: str, document: nodes.document) -> None:
            token = _UPGRADE.set(_options(document))
            try:
                super().parse(inputstring, document)
            finally:
                _UPGRADE.reset(token)

    return MystParser


def _builder_inited(app: Sphinx) -> None:
    """With every extension loaded: MyST's parser upgraded when ``myst_parser`` is one of them."""
    if "myst_parser" not in app.extensions:
        return
    parser = _install_myst_hook()
    if parser is not None:
        app.add_source_parser(parser, override=True)


def setup(app: Sphinx) -> dict[str, Any]:
    """Register the upgraded reST parser (and MyST's, once the extensions are loaded)."""
    app.add_config_value("uts58_strict_hosts", False, "env", types=(bool,))
    app.add_config_value("uts58_reject_risky", False, "env", types=(bool, str))
    app.add_source_parser(RSTParser, override=True)
    app.connect("builder-inited", _builder_inited)
    try:
        version = metadata.version("uts58_adapt")
    except metadata.PackageNotFoundError:  # run from a checkout that is not installed
        version = "unknown"
    return {"version": version, "parallel_read_safe": True, "parallel_write_safe": True}

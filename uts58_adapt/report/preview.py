"""The migration preview: a library's own links ("before") and its upgrade's links ("after").

``uts58-adapt report`` audits the upgrade the migration guides recommend (UTS #58 §10.1,
"Migration: Link Detection": the library keeps the recognition of scheme and host):

- for linkify-it and urlextract, "before" is exactly what the instance itself returns on
  each line (``LinkifyIt().match(line)``, ``URLExtract().find_urls(line, get_indices=True)``,
  or those of the team's configured object: ``--linkifier MODULE:ATTR``), and "after" is
  exactly what ``wrap(instance)`` returns on it;
- ``strict_hosts`` (§1.4's registrable-domain rule that ``detect()`` applies by default) is
  an option of the preview: ``wrap(instance, strict_hosts=True)``.

The instances are built once per process (a worker imports ``MODULE`` itself) and kept
per thread: a linkify-it instance keeps the state of its last ``test()``.
"""

from __future__ import annotations

import hashlib
import importlib
import threading
from collections.abc import Callable
from typing import Any, Literal, cast

from ..link import Link

__all__ = [
    "UPGRADABLE",
    "LinkifierError",
    "MarkdownFactory",
    "Preview",
    "backend_of",
    "configuration",
    "library_versions",
    "load_linkifier",
    "preview",
]

#: The backends whose upgrade the report previews line by line: ``wrap(instance)`` for the first
#: two, the integration (``uts58_adapt.integrations.django.urlize``, ``integrations.jinja2.install``)
#: for Django's and Jinja2's urlize.
UPGRADABLE = ("linkify-it", "urlextract", "bleach", "django", "jinja2", "mistune", "magiclink")
#: Of those, the ones given HTML-producing calls (:class:`UrlizePreview`).
URLIZE = ("django", "jinja2")


class LinkifierError(ValueError):
    """``--linkifier MODULE:ATTR`` names nothing usable (the message says why, on one line)."""


class MarkdownFactory:
    """A team's mistune or Python-Markdown factory (``--linkifier MODULE:ATTR`` naming a function
    that returns a new ``mistune.Markdown`` or ``markdown.Markdown``).  The preview calls it
    twice: one renderer stays the team's ("before"), the other gets the integration ("after"),
    which changes the renderer it is given."""

    def __init__(self, backend: str, make: Callable[[], Any]) -> None:
        self.backend = backend
        self.make = make


def _markdown_backend(obj: Any) -> str | None:
    """``"mistune"`` for a ``mistune.Markdown``, ``"magiclink"`` for a ``markdown.Markdown``, else None."""
    import sys

    mistune, markdown = sys.modules.get("mistune"), sys.modules.get("markdown")
    if mistune is not None and isinstance(obj, mistune.Markdown):
        return "mistune"
    if markdown is not None and isinstance(obj, markdown.Markdown):
        return "magiclink"
    return None


def load_linkifier(spec: str) -> Any:
    """The object ``spec`` (``MODULE:ATTR``, ``ATTR`` may be dotted) names, ready to audit.

    A callable that is not itself a linkifier (a factory) is called with no argument; a
    ``MarkdownIt`` gives its ``.linkify``; an object already wrapped (``wrap(x)``) gives ``x``,
    the library's own configuration.  Raises :class:`LinkifierError`.
    """
    module_name, sep, attr = spec.partition(":")
    if not sep or not module_name or not attr:
        raise LinkifierError(f"--linkifier {spec!r}: expected MODULE:ATTR, e.g. myapp.text:linkifier")
    import os
    import sys

    # MODULE is looked for in the current directory too, as ``python -m`` would (the console
    # script's sys.path holds only its own directory); each worker process does the same.
    here = os.getcwd()
    if "" not in sys.path and here not in sys.path:
        sys.path.append(here)
    try:
        obj: Any = importlib.import_module(module_name)
    except Exception as exc:  # ImportError, or anything the module raises on import
        raise LinkifierError(
            f"--linkifier {spec!r}: cannot import {module_name}: {type(exc).__name__}: {exc}"
        ) from None
    for part in attr.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            raise LinkifierError(f"--linkifier {spec!r}: {module_name} has no attribute {attr}") from None
    if _markdown_backend(obj) is not None:
        raise LinkifierError(
            f"--linkifier {spec!r}: a {type(obj).__name__} instance; name a function that returns a new one "
            "(the upgrade changes the renderer it is given, and the report needs the team's too)"
        )
    if backend_of(obj) is None and callable(obj) and not isinstance(obj, type):
        factory = obj
        try:
            obj = obj()
        except Exception as exc:
            raise LinkifierError(f"--linkifier {spec!r}: calling it failed: {type(exc).__name__}: {exc}") from None
        found = _markdown_backend(obj)
        if found is not None:
            return MarkdownFactory(found, factory)
    obj = _unwrapped(_linkifier_of(obj))
    if backend_of(obj) is None:
        raise LinkifierError(
            f"--linkifier {spec!r}: a {type(obj).__name__}, not a LinkifyIt, MarkdownIt, URLExtract, "
            "bleach Linker or Cleaner, or Jinja2 Environment (or a callable returning one), nor a function "
            "returning a mistune.Markdown or markdown.Markdown"
        )
    return obj


def _linkifier_of(obj: Any) -> Any:
    """A ``MarkdownIt``'s linkifier (``md.linkify``), else ``obj``."""
    try:
        from markdown_it import MarkdownIt
    except ImportError:  # pragma: no cover - markdown-it-py comes with linkify-it-py
        return obj
    return obj.linkify if isinstance(obj, MarkdownIt) else obj


def _unwrapped(obj: Any) -> Any:
    from ..wrapping import LinkifyItWrapper, URLExtractWrapper

    if isinstance(obj, (LinkifyItWrapper, URLExtractWrapper)):
        return obj.wrapped
    import sys

    integration = sys.modules.get("uts58_adapt.integrations.bleach")
    if integration is not None and isinstance(obj, integration.UTS58Linker):
        # wrap(Linker(...)): the same configuration (attribute dict) in bleach's own Linker.
        plain = object.__new__(sys.modules["bleach.linkifier"].Linker)
        plain.__dict__ = obj.__dict__
        return plain
    return obj


def backend_of(obj: Any) -> str | None:
    """``"linkify-it"``, ``"urlextract"``, ``"bleach"`` (a ``Linker`` or a ``Cleaner``) or
    ``"jinja2"`` for an instance of those libraries, ``"mistune"`` or ``"magiclink"`` for a
    :class:`MarkdownFactory`, else None."""
    import sys

    from linkify_it.main import LinkifyIt
    from urlextract.urlextract_core import URLExtract

    if isinstance(obj, LinkifyIt):
        return "linkify-it"
    if isinstance(obj, URLExtract):
        return "urlextract"
    bleach_linkifier, bleach_sanitizer = sys.modules.get("bleach.linkifier"), sys.modules.get("bleach.sanitizer")
    if (bleach_linkifier is not None and isinstance(obj, bleach_linkifier.Linker)) or (
        bleach_sanitizer is not None and isinstance(obj, bleach_sanitizer.Cleaner)
    ):
        return "bleach"
    jinja2 = sys.modules.get("jinja2")
    if jinja2 is not None and isinstance(obj, jinja2.Environment):
        return "jinja2"
    if isinstance(obj, MarkdownFactory):
        return obj.backend
    return None


def _default_instance(backend: str) -> Any:
    """The library's instance as a new user makes it: ``LinkifyIt()``, ``URLExtract()``."""
    if backend == "linkify-it":
        from linkify_it.main import LinkifyIt

        return LinkifyIt()
    if backend == "urlextract":
        from urlextract.urlextract_core import URLExtract

        return URLExtract()
    if backend == "bleach":
        from bleach.linkifier import Linker

        return Linker()
    raise ValueError(f"no upgrade preview for the {backend} backend; expected one of {', '.join(UPGRADABLE)}")


def _href(text: str, kind: str) -> str:
    if kind == "email":
        return text if text[:7].lower() == "mailto:" else "mailto:" + text
    if "://" in text[:40] or text.startswith("//"):
        return text
    return "https://" + text


def _url_kind(url: str) -> Literal["url", "email"]:
    """urlextract reports an email as a schemeless URL with userinfo: ``user@host``."""
    return "email" if "@" in url and "://" not in url and "/" not in url else "url"


class Preview:
    """The instance audited and its upgrade: :meth:`pair` gives a line's links before and after."""

    def __init__(self, instance: Any, strict_hosts: bool = False, reject_risky: bool = False) -> None:
        from ..wrapping import wrap

        backend = backend_of(instance)
        if backend is None:
            raise TypeError(f"not a LinkifyIt or URLExtract instance: {type(instance).__name__}")
        self.backend: str = backend
        self.instance = instance
        self.upgraded = wrap(instance, strict_hosts=strict_hosts, reject_risky=reject_risky)
        self.strict_hosts = strict_hosts

    def pair(self, line: str) -> tuple[list[Link], list[Link]]:
        """``(before, after)``: the instance's own links on ``line`` and ``wrap(instance)``'s.

        "before" links carry their own span as ``original``; "after" links carry None (the
        audit pairs them by overlap, :func:`~.core.pair_links`).
        """
        if self.backend == "linkify-it":
            return self._linkify_it(line)
        return self._urlextract(line)

    def _linkify_it(self, line: str) -> tuple[list[Link], list[Link]]:
        from ..backends.linkify_it import anchored_matches, instance_anchor

        anchor = instance_anchor(self.instance)
        # The instance's matches from its anchored tokens: those of one call (tests/test_fast_path.py),
        # in linear time on long runs.
        raw = anchored_matches(self.instance, line, anchor) if anchor is not None else self.instance.match(line) or []
        before = [self._match_link(line, m, True) for m in raw]
        after = [self._match_link(line, m, False) for m in self.upgraded.match(line) or ()]
        return before, after

    @staticmethod
    def _match_link(line: str, m: Any, own: bool) -> Link:
        start, end = int(m.index), int(m.last_index)
        kind: Literal["url", "email"] = "email" if str(m.schema).lower() == "mailto:" else "url"
        return Link(start, end, line[start:end], kind, str(m.url), (start, end) if own else None)

    def _urlextract(self, line: str) -> tuple[list[Link], list[Link]]:
        before = self._spans(line, self._library_found(line), True)
        found = cast(list[tuple[str, tuple[int, int]]], self.upgraded.find_urls(line, get_indices=True))
        return before, self._spans(line, found, False)

    def _library_found(self, line: str) -> list[tuple[str, tuple[int, int]]]:
        """``instance.find_urls(line, get_indices=True)``, from the anchored tokens where that is exact."""
        from ..backends.urlextract import instance_gen_urls

        fast = instance_gen_urls(self.instance, line)
        if fast is not None:
            return fast
        return cast(list[tuple[str, tuple[int, int]]], self.instance.find_urls(line, get_indices=True))

    @staticmethod
    def _spans(line: str, found: list[tuple[str, tuple[int, int]]], own: bool) -> list[Link]:
        out: list[Link] = []
        last_end = -1
        for url, (start, end) in sorted(found, key=lambda f: (f[1][0], -f[1][1])):
            if line[start:end] != url:  # urlextract's own index arithmetic can be off: the string decides
                start = line.find(url, max(0, start - len(url)))
                if start < 0:
                    continue
                end = start + len(url)
            if start < last_end:
                continue  # (a duplicate: urlextract may report one URL twice)
            kind = _url_kind(url)
            out.append(Link(start, end, url, kind, _href(url, kind), (start, end) if own else None))
            last_end = end
        return out

    def configuration(self) -> dict[str, Any]:
        """What decides the instance's links (:func:`configuration`), and the upgrade's options."""
        return {**configuration(self.instance), "strict_hosts": self.strict_hosts}


class UrlizePreview:
    """Django's or Jinja2's urlize and its integration: each line rendered twice, as a template
    renders a plain-text value (escaped), and the links read back from the two HTML outputs
    (``backends._html_spans.anchor_hrefs``: the text outside the anchors is the line's)."""

    def __init__(self, backend: str, strict_hosts: bool = False, reject_risky: bool = False, env: Any = None) -> None:
        self.backend = backend
        self.strict_hosts = strict_hosts
        self.env = env
        self._render: tuple[Callable[[str], str], Callable[[str], str]]
        if backend == "django":
            from django.utils.html import urlize

            from ..backends.django import standalone_settings
            from ..integrations.django import urlize as upgraded

            standalone_settings()  # (a process without Django settings: the backend's choice)
            self._render = (
                lambda line: str(urlize(line, autoescape=True)),
                lambda line: str(upgraded(line, autoescape=True, strict_hosts=strict_hosts, reject_risky=reject_risky)),
            )
        elif backend == "jinja2":
            from jinja2 import Environment

            from ..integrations.jinja2 import install

            own = env if env is not None else Environment()
            # The team's Environment as it is, and an overlay of it (its own filters dict) upgraded.
            env = own.overlay()
            env.filters = dict(own.filters)
            install(env, strict_hosts=strict_hosts, reject_risky=reject_risky)
            before, after = own.from_string("{{ line|urlize }}"), env.from_string("{{ line|urlize }}")
            self._render = (lambda line: before.render(line=line), lambda line: after.render(line=line))
        else:
            raise ValueError(f"no urlize preview for the {backend} backend")

    def pair(self, line: str) -> tuple[list[Link], list[Link]]:
        """``(before, after)``: the library's links in its HTML for ``line``, and the integration's."""
        from ..backends._html_spans import anchor_hrefs

        sides = []
        for own, render in zip((True, False), self._render):
            found = anchor_hrefs(line, render(line))
            sides.append(
                [
                    Link(r.start, r.end, line[r.start : r.end], r.kind, href, (r.start, r.end) if own else None)
                    for r, href in found
                ]
            )
        return sides[0], sides[1]

    def configuration(self) -> dict[str, Any]:
        """What decides the links: the call and the settings or policies it reads."""
        if self.backend == "django":
            import os

            from django.conf import settings

            return {
                "call": "django.utils.html.urlize(line, autoescape=True)",
                # the team's settings (DJANGO_SETTINGS_MODULE), else standalone ones
                "settings": os.environ.get("DJANGO_SETTINGS_MODULE") or "standalone (URLIZE_ASSUME_HTTPS=True)",
                "URLIZE_ASSUME_HTTPS": getattr(settings, "URLIZE_ASSUME_HTTPS", None),
                "strict_hosts": self.strict_hosts,
            }
        from jinja2 import Environment

        env = self.env if self.env is not None else Environment()
        policies = env.policies
        return {
            "class": _class_name(env),
            "call": "env.from_string('{{ line|urlize }}').render(line=line)",
            "policies": {k: v for k, v in sorted(policies.items()) if k.startswith("urlize.")},
            "strict_hosts": self.strict_hosts,
        }


class MarkdownPreview:
    """mistune's ``url`` plugin or Python-Markdown's magiclink, and their integrations: each line
    rendered as a Markdown paragraph by both, and the links read back from the two outputs
    (``backends._html_spans.anchor_hrefs`` places each anchor's text in the line)."""

    #: Every link of these renderers (and every email the integrations add) holds one of these.
    _ANCHORS = ("://", "@", "www.", "ftp.")

    def __init__(
        self,
        backend: str,
        strict_hosts: bool = False,
        reject_risky: bool = False,
        make: Callable[[], Any] | None = None,
    ) -> None:
        self.backend = backend
        self.strict_hosts = strict_hosts
        self.make = make
        if backend == "mistune":
            import mistune

            from ..integrations.mistune import url_plugin

            plugin: Any = url_plugin(strict_hosts=strict_hosts, reject_risky=reject_risky)
            if make is None:
                own, upgraded = mistune.create_markdown(plugins=["url"]), mistune.create_markdown(plugins=[plugin])
            else:
                # The team's renderer twice; the integration replaces the url plugin's rule in one
                # (a renderer without the url plugin links only <autolinks>: nothing to upgrade).
                own, upgraded = make(), make()
                if "url_link" in upgraded.inline.rules:
                    plugin(upgraded)
            self._render: tuple[Callable[[str], str], Callable[[str], str]] = (
                lambda line: str(own(line)),
                lambda line: str(upgraded(line)),
            )
        elif backend == "magiclink":
            import markdown

            if make is None:
                own_md = markdown.Markdown(extensions=["pymdownx.magiclink"])
                up_md = markdown.Markdown(
                    extensions=["uts58_adapt.integrations.magiclink"],
                    extension_configs={
                        "uts58_adapt.integrations.magiclink": {
                            "strict_hosts": strict_hosts,
                            "reject_risky": reject_risky,
                        }
                    },
                )
            else:
                from pymdownx.magiclink import MagiclinkPattern

                from ..integrations.magiclink import RefinedLinkPattern, UTS58MagiclinkExtension

                own_md, up_md = make(), make()
                # The team's magiclink options (its link pattern holds them), kept: the integration's
                # extension registers the same patterns under the same names, replacing magiclink's.
                registry = up_md.inlinePatterns  # (a Registry: no .get)
                pattern = registry["magic-link"] if "magic-link" in registry else None  # noqa: SIM401
                if isinstance(pattern, MagiclinkPattern) and not isinstance(pattern, RefinedLinkPattern):
                    configs = {**pattern.config, "strict_hosts": strict_hosts, "reject_risky": reject_risky}
                    UTS58MagiclinkExtension(**configs).extendMarkdown(up_md)
            self._render = (lambda line: own_md.reset().convert(line), lambda line: up_md.reset().convert(line))
        else:
            raise ValueError(f"no Markdown preview for the {backend} backend")

    def pair(self, line: str) -> tuple[list[Link], list[Link]]:
        """``(before, after)``: the links of the library's HTML for ``line`` and of the integration's."""
        from ..backends._html_spans import anchor_hrefs

        lowered = line.lower()
        if not any(anchor in lowered for anchor in self._ANCHORS):
            return [], []
        sides = []
        for own, render in zip((True, False), self._render):
            sides.append(
                [
                    Link(r.start, r.end, line[r.start : r.end], r.kind, href, (r.start, r.end) if own else None)
                    for r, href in anchor_hrefs(line, render(line))
                ]
            )
        return sides[0], sides[1]

    def configuration(self) -> dict[str, Any]:
        """What decides the links: the renderer as the preview builds it."""
        if self.make is not None:
            made = self.make()
            out: dict[str, Any] = {
                "factory": getattr(self.make, "__qualname__", repr(self.make)),
                "class": _class_name(made),
            }
            if self.backend == "mistune":
                out["inline_rules"] = list(made.inline.rules)
            else:
                out["inline_patterns"] = [str(item.name) for item in made.inlinePatterns._priority]
            out["strict_hosts"] = self.strict_hosts
            return out
        call = (
            "mistune.create_markdown(plugins=['url'])(line)"
            if self.backend == "mistune"
            else "markdown.Markdown(extensions=['pymdownx.magiclink']).convert(line)"
        )
        return {"call": call, "strict_hosts": self.strict_hosts}


class BleachPreview:
    """A bleach ``Linker`` (or a ``Cleaner`` with a ``LinkifyFilter``) and its upgrade: each line,
    HTML-escaped (plain text, as a template would give it), linkified twice, and the links read
    back from the two outputs (``backends._html_spans.anchor_hrefs``)."""

    def __init__(self, obj: Any, strict_hosts: bool = False, reject_risky: bool = False) -> None:
        import html

        from ..wrapping import wrap

        self.obj = obj
        self.strict_hosts = strict_hosts
        self._escape: Callable[[str], str] = lambda line: html.escape(line, quote=False)
        if hasattr(obj, "linkify"):  # a Linker
            upgraded = wrap(obj, strict_hosts=strict_hosts, reject_risky=reject_risky)
            self._render = (obj.linkify, upgraded.linkify)
        else:  # a Cleaner: its LinkifyFilter upgraded in a copy
            import copy

            from bleach.linkifier import LinkifyFilter

            def upgrade(f: Any) -> Any:
                target = getattr(f, "func", f)
                if isinstance(target, type) and issubclass(target, LinkifyFilter):
                    return wrap(f, strict_hosts=strict_hosts, reject_risky=reject_risky)
                return f

            clone = copy.copy(obj)
            clone.filters = [upgrade(f) for f in obj.filters]
            self._render = (obj.clean, clone.clean)

    def pair(self, line: str) -> tuple[list[Link], list[Link]]:
        """``(before, after)``: the links of the library's output for ``line`` and of the upgrade's."""
        from ..backends._html_spans import anchor_hrefs

        text = self._escape(line)
        sides = []
        for own, render in zip((True, False), self._render):
            sides.append(
                [
                    Link(r.start, r.end, line[r.start : r.end], r.kind, href, (r.start, r.end) if own else None)
                    for r, href in anchor_hrefs(line, str(render(text)))
                ]
            )
        return sides[0], sides[1]

    def configuration(self) -> dict[str, Any]:
        """What decides the links: the Linker's (or LinkifyFilter's) options."""
        linker = self.obj
        if not hasattr(linker, "linkify"):
            found = [f for f in linker.filters if "Linkify" in getattr(getattr(f, "func", f), "__name__", "")]
            options = dict(getattr(found[0], "keywords", {})) if found else {}
            return {"class": _class_name(linker), "linkify_filter": {k: repr(v) for k, v in sorted(options.items())}}
        filt = getattr(linker, "_linkify_filter", None) or linker
        out: dict[str, Any] = {"class": _class_name(linker)}
        for name in ("parse_email", "skip_tags", "callbacks", "url_re", "email_re"):
            value = getattr(linker, name, getattr(filt, name, None))
            if name in ("url_re", "email_re") and value is not None:
                pattern = str(getattr(value, "pattern", value))
                value = {"sha256": _digest([pattern]), "length": len(pattern)}
            elif name == "callbacks" and value is not None:
                value = [getattr(cb, "__qualname__", repr(cb)) for cb in value]
            elif name == "skip_tags" and value is not None:
                value = sorted(value)
            out[name] = value
        out["strict_hosts"] = self.strict_hosts
        return out


_local = threading.local()


def preview(
    backend: str, linkifier: str = "", strict_hosts: bool = False, reject_risky: bool = False
) -> Preview | UrlizePreview | BleachPreview | MarkdownPreview:
    """The preview of ``backend``'s default instance, or of ``--linkifier`` ``linkifier``
    (``MODULE:ATTR``), built once per process and thread."""
    cache: dict[tuple[str, str, bool, bool], Preview | UrlizePreview | BleachPreview | MarkdownPreview] | None = (
        getattr(_local, "previews", None)
    )
    if cache is None:
        cache = _local.previews = {}
    key = (backend, linkifier, strict_hosts, reject_risky)
    found = cache.get(key)
    if found is None:
        if backend in URLIZE and not linkifier:
            found = UrlizePreview(backend, strict_hosts, reject_risky)
        elif backend in ("mistune", "magiclink") and not linkifier:
            found = MarkdownPreview(backend, strict_hosts, reject_risky)
        else:
            instance = load_linkifier(linkifier) if linkifier else _default_instance(backend)
            if isinstance(instance, MarkdownFactory):
                found = MarkdownPreview(instance.backend, strict_hosts, reject_risky, make=instance.make)
            elif backend_of(instance) == "jinja2":
                found = UrlizePreview("jinja2", strict_hosts, reject_risky, env=instance)
            elif backend_of(instance) == "bleach":
                found = BleachPreview(instance, strict_hosts, reject_risky)
            else:
                found = Preview(instance, strict_hosts, reject_risky)
        cache[key] = found
    return found


def _digest(items: list[str]) -> str:
    return hashlib.sha256("\n".join(items).encode("utf-8", "surrogatepass")).hexdigest()[:16]


def configuration(instance: Any) -> dict[str, Any]:
    """The configuration that decides an instance's links, as the report records it.

    linkify-it: its schemas, its options (``fuzzy_link``, ``fuzzy_email``, ``fuzzy_ip``, …),
    its TLD list (count and a SHA-256 prefix of the sorted entries) and whether it replaced
    the default list.  urlextract: its TLDs (count and hash), stop characters, ``extract_email``,
    ``extract_localhost``, ``ignore_list`` and ``permit_list``, ``limit``.
    """
    backend = backend_of(instance)
    if backend == "linkify-it":
        tlds = sorted(str(t) for t in getattr(instance, "_tlds", []))
        opts = getattr(instance, "_opts", {})
        return {
            "class": _class_name(instance),
            "schemas": sorted(str(s) for s, spec in getattr(instance, "_schemas", {}).items() if spec is not None),
            "options": {str(k): v for k, v in sorted(opts.items()) if isinstance(v, (bool, int, str))},
            "tlds": {"count": len(tlds), "sha256": _digest(tlds), "replaced": bool(instance._tlds_replaced)},
        }
    if backend == "urlextract":
        pattern = getattr(getattr(instance, "_tlds_re", None), "pattern", "")
        tlds = sorted(t.replace("\\", "") for t in str(pattern).split("|") if t)
        return {
            "class": _class_name(instance),
            "extract_email": bool(instance.extract_email),
            "extract_localhost": bool(getattr(instance, "_extract_localhost", True)),
            "stop_chars_left": "".join(sorted(instance.get_stop_chars_left())),
            "stop_chars_right": "".join(sorted(instance.get_stop_chars_right())),
            "ignore_list": sorted(instance.ignore_list or ()),
            "permit_list": sorted(instance.permit_list or ()),
            "limit": getattr(instance, "_limit", None),
            "tlds": {"count": len(tlds), "sha256": _digest(tlds)},
        }
    return {"class": _class_name(instance)}


def _class_name(obj: Any) -> str:
    cls = type(obj)
    return f"{cls.__module__}.{cls.__qualname__}"


#: Backend -> the distributions of the libraries it runs (as ``pip`` names them).
_DISTRIBUTIONS: dict[str, tuple[str, ...]] = {
    "linkify-it": ("linkify-it-py",),
    "urlextract": ("urlextract",),
    "bleach": ("bleach",),
    "django": ("Django",),
    "jinja2": ("Jinja2",),
    "mistune": ("mistune",),
    "magiclink": ("Markdown", "pymdown-extensions"),
}


def library_versions(backend: str) -> dict[str, str]:
    """``{distribution: version}`` of the libraries behind ``backend`` (``"not installed"`` when absent)."""
    from importlib.metadata import PackageNotFoundError, version

    out = {}
    for dist in _DISTRIBUTIONS.get(backend, ()):
        try:
            out[dist] = version(dist)
        except PackageNotFoundError:
            out[dist] = "not installed"
    return out

"""Fetch real documentation folders from package registries, at bench time.

Nothing fetched here is ever committed: each corpus is downloaded from the
registry that publishes it (PyPI, npm, Debian), checked against the digest the
registry gives, cached under ``.cache/corpora`` by version, and reduced to its
markdown (plus the images its pages name) with the relative paths kept.

    python bench/corpora/fetch.py                 # every corpus
    python bench/corpora/fetch.py furo nodejs-api # some
    python bench/corpora/fetch.py --list          # what each one is, no download
    python bench/corpora/fetch.py --whole attrs   # the whole sdist, as a user's repository holds it

From Python::

    from bench.corpora.fetch import CORPORA, fetch
    folder = fetch("furo")            # Path to a folder of .md files

Standard library only. Errors are one line (``fetch: ...``) and exit 1.
"""

from __future__ import annotations

import argparse
import base64
import gzip
import hashlib
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

PYPI_URL = "https://pypi.org"
NPM_REGISTRY = "https://registry.npmjs.org"
TIMEOUT = 60
PAGE_SUFFIXES = (".md", ".mdx", ".ipynb", ".rst", ".qmd", ".adoc")
# A generator's settings inside the docs folder: its site's name, language and reading order
SETTINGS_FILES = ("_quarto.yml", "docs.json", "mint.json", "myst.yml", "_config.yml", "_toc.yml", "antora.yml",
                  "antora-playbook.yml")
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".gif", ".svg", ".webp")
DEFAULT_ROOT = Path(".cache/corpora")


class FetchError(Exception):
    """A corpus could not be fetched; the message is one line for a person."""


@dataclass(frozen=True)
class Corpus:
    name: str
    registry: str          # "pypi", "npm" or "debian"
    package: str
    version: str           # exact pin
    subdir: str            # docs folder inside the archive (after its top folder)
    generator: str
    installed_dir: str = ""      # debian: use this folder when the package is installed
    installed_package: str = ""  # debian: the installed package that owns installed_dir
    pool: str = ""               # debian: the .deb's path in the archive's pool, for a suite apt here does not list
    sha256: str = ""             # debian: that .deb's digest, as the suite's Packages index gives it
    above: tuple[str, ...] = ()  # settings files in the docs folder's parent the site reads (Antora's playbook)

    @property
    def source(self) -> str:
        if self.registry == "pypi":
            return f"PyPI sdist {self.package}=={self.version}"
        if self.registry == "npm":
            return f"npm tarball {self.package}@{self.version}"
        return f"Debian {self.package}={self.version}"

    @property
    def sources(self) -> str:
        """Where fetch() looks, in order (for --list)."""
        if self.installed_dir:
            return f"installed {self.installed_package} ({self.installed_dir}/*.md), else {self.source}"
        return self.source


CORPORA: dict[str, Corpus] = {
    c.name: c
    for c in (
        # Node's API reference: GFM plus HTML comments (<!-- YAML ... -->,
        # <!--introduced_in=...-->) and <a id> anchors. The machine image installs
        # nodejs 20.x, which ships api/*.md; Debian's own nodejs (18.x) does not,
        # but its nodejs-doc package has the same 64 file names (60 gzipped).
        Corpus(
            name="nodejs-api",
            registry="debian",
            package="nodejs-doc",
            version="18.20.4+dfsg-1~deb12u3",
            subdir="usr/share/doc/nodejs/api",
            generator="Node.js doc tool (GFM + HTML comments)",
            installed_dir="/usr/share/doc/nodejs/api",
            installed_package="nodejs",
        ),
        # Sphinx + MyST-Parser: ```{note} fences, {doc}/{ref} roles, hide-toc.
        Corpus("furo", "pypi", "furo", "2025.12.19", "docs", "Sphinx + MyST-Parser"),
        # Sphinx with reStructuredText, as most Python projects still write it: toctree, :ref:/:doc:,
        # code-block, versionadded, autodoc directives and `.. include:: ../CHANGES.rst`.
        Corpus("flask", "pypi", "flask", "3.1.3", "docs", "Sphinx, reStructuredText (Flask's own docs)"),
        Corpus("jinja", "pypi", "jinja2", "3.1.6", "docs", "Sphinx, reStructuredText (Jinja's own docs)"),
        # Sphinx's own manual: every directive and role of Sphinx and its domains, written in rST.
        Corpus("sphinx", "pypi", "sphinx", "9.2.0", "doc", "Sphinx, reStructuredText (Sphinx's own docs)"),
        Corpus("pytest", "pypi", "pytest", "9.2.0", "doc/en", "Sphinx, reStructuredText (pytest's own docs)"),
        # Sphinx with pages in both MyST and rST: {pip-cli} command fences, {tab} tabs, .. pip-command-usage::.
        Corpus("pip", "pypi", "pip", "26.3", "docs/html", "Sphinx, MyST and reStructuredText (pip's own docs)"),
        # Sphinx whose conf.py makes `.txt` files the pages (source_suffix) and names another root_doc.
        Corpus("django", "pypi", "django", "6.1.3", "docs", "Sphinx, reStructuredText in .txt files (Django's docs)"),
        # Pallets' docs after their move to MyST: {code-block} fences, {eval-rst} autodoc, {ref} roles.
        Corpus("click", "pypi", "click", "8.5.1", "docs", "Sphinx + MyST-Parser (Click's own docs)"),
        # Sphinx with the `changelog` extension (SQLAlchemy's projects): `.. changelog::` per release, `.. change::`
        # per change with :tags: and :tickets:, and a :paramref: role.
        Corpus("alembic", "pypi", "alembic", "1.20.1", "docs/build", "Sphinx, reStructuredText (Alembic's own docs)"),
        Corpus("mako", "pypi", "mako", "1.4.3", "doc/build", "Sphinx, reStructuredText (Mako's own docs)"),
        # Sphinx reference pages whose signatures go on over lines ending in a backslash.
        Corpus("aiohttp", "pypi", "aiohttp", "3.14.5", "docs", "Sphinx, reStructuredText (aiohttp's own docs)"),
        # Sphinx with rST guides and a MyST change log included from outside the docs folder.
        Corpus("mypy", "pypi", "mypy", "2.4.1", "docs/source", "Sphinx, reStructuredText and MyST (mypy's own docs)"),
        # Sphinx with a project's own roles (:setting:, :control:, :sig:), a change log per release series and
        # reference pages that are only automodule directives.
        Corpus("celery", "pypi", "celery", "5.7.0", "docs", "Sphinx, reStructuredText (Celery's own docs)"),
        # Sphinx with a project's own roles and directives (:setting:, :signal:, .. setting::, .. skip: next).
        Corpus("scrapy", "pypi", "scrapy", "2.19.0", "docs", "Sphinx, reStructuredText (Scrapy's own docs)"),
        # Sphinx + MyST with doctest-style examples (`>>>` sessions) and a MyST change log.
        Corpus("structlog", "pypi", "structlog", "26.1.0", "docs", "Sphinx + MyST-Parser (structlog's own docs)"),
        # MkDocs Material on a web framework's guide: admonitions, tabbed code, links to the API.
        Corpus("starlette", "pypi", "starlette", "1.10.0", "docs", "MkDocs Material (Starlette's own docs)"),
        # Sphinx + MyST-Parser on a tool's user guide: usage, configuration and a long change log.
        Corpus("black", "pypi", "black", "26.10.1", "docs", "Sphinx + MyST-Parser (Black's own docs)"),
        # MyST as mystmd reads it: :::{note} colon fences, {term}/{eq} roles.
        Corpus("jupyter-book", "pypi", "jupyter-book", "2.1.7", "docs", "MyST (mystmd / Jupyter Book 2)"),
        # MkDocs: !!! admonitions, /// blocks, ::: autodoc, attr_list {#id}.
        Corpus("python-markdown", "pypi", "markdown", "3.11.3", "docs", "MkDocs (Python-Markdown's own docs)"),
        # MkDocs Material with every pymdown extension: === "Tab" content tabs, ??? details,
        # --8<-- snippets, *[abbr] definitions, ==mark==, task lists.
        Corpus("pymdown-extensions", "pypi", "pymdown-extensions", "13.1.2", "docs/src/markdown",
               "MkDocs Material + pymdown-extensions (their own docs)"),
        # Docusaurus 2: :::note/:::danger, description/sidebar_label/slug front matter.
        Corpus(
            "typescript-eslint", "npm", "@typescript-eslint/eslint-plugin", "5.62.0", "docs",
            "Docusaurus 2 (typescript-eslint rule docs)",
        ),
        # Docusaurus 3 MDX: .mdx pages with ESM imports, <Tabs>/<TabItem value="❌ Incorrect">,
        # {/* comments */} and components of the site's own.
        Corpus(
            "typescript-eslint-mdx", "npm", "@typescript-eslint/eslint-plugin", "7.18.0", "docs",
            "Docusaurus 3 MDX (typescript-eslint rule docs)",
        ),
        # The Docusaurus starter every new site begins with (npm init docusaurus): .mdx only,
        # :::tip[Title], {/* #heading-id */}, _category_.json folders.
        Corpus(
            "docusaurus-starter", "npm", "create-docusaurus", "3.10.2", "templates/shared/docs",
            "Docusaurus 3 MDX (the starter site's docs)",
        ),
        # Sites written in Japanese and in Korean (human translations of FastAPI's docs; 0.110.2
        # is the last sdist that ships docs/): MkDocs Material, !!! admonitions with translated
        # titles, {!../../../docs_src/...!} markdown-include lines, <abbr> and <div> HTML.
        Corpus("fastapi-ja", "pypi", "fastapi", "0.110.2", "docs/ja/docs", "MkDocs Material, in Japanese (FastAPI)"),
        Corpus("fastapi-ko", "pypi", "fastapi", "0.110.2", "docs/ko/docs", "MkDocs Material, in Korean (FastAPI)"),
        # The same site in Russian (the brief's own language) and in Chinese (its largest translation).
        Corpus("fastapi-ru", "pypi", "fastapi", "0.110.2", "docs/ru/docs", "MkDocs Material, in Russian (FastAPI)"),
        Corpus("fastapi-zh", "pypi", "fastapi", "0.110.2", "docs/zh/docs", "MkDocs Material, in Chinese (FastAPI)"),
        # Translations in Latin letters: told from English by their function words, not their script.
        Corpus("fastapi-de", "pypi", "fastapi", "0.110.2", "docs/de/docs", "MkDocs Material, in German (FastAPI)"),
        Corpus("fastapi-es", "pypi", "fastapi", "0.110.2", "docs/es/docs", "MkDocs Material, in Spanish (FastAPI)"),
        Corpus("fastapi-fr", "pypi", "fastapi", "0.110.2", "docs/fr/docs", "MkDocs Material, in French (FastAPI)"),
        Corpus("fastapi-pt", "pypi", "fastapi", "0.110.2", "docs/pt/docs", "MkDocs Material, in Portuguese (FastAPI)"),
        # Right to left: Persian and Urdu in Arabic letters, Hebrew (small folders: 5, 1 and 1 pages).
        Corpus("fastapi-fa", "pypi", "fastapi", "0.110.2", "docs/fa/docs", "MkDocs Material, in Persian (FastAPI)"),
        Corpus("fastapi-he", "pypi", "fastapi", "0.110.2", "docs/he/docs", "MkDocs Material, in Hebrew (FastAPI)"),
        Corpus("fastapi-ur", "pypi", "fastapi", "0.110.2", "docs/ur/docs", "MkDocs Material, in Urdu (FastAPI)"),
        # Bengali script (3 pages), the one other script among FastAPI's translations.
        Corpus("fastapi-bn", "pypi", "fastapi", "0.110.2", "docs/bn/docs", "MkDocs Material, in Bengali (FastAPI)"),
        # MkDocs Material with the blog plugin (posts/ with date/authors/categories front matter),
        # content tabs, inline SVG, <figure markdown> and ::: mkdocs-click directives.
        Corpus("hatch", "pypi", "hatch", "1.18.2", "docs", "MkDocs Material + blog plugin (Hatch's own docs)"),
        # mkdocstrings' own docs: `# ::: mkdocstrings` headings with indented options, --8<-- pages.
        Corpus("mkdocstrings", "pypi", "mkdocstrings", "1.0.8", "docs", "MkDocs Material + mkdocstrings (its own docs)"),
        # One page far bigger than the rest: a conventional-changelog CHANGELOG.md (262 KB, about
        # 2,000 passages) beside the package's README and code of conduct.
        Corpus("rxjs-changelog", "npm", "rxjs", "7.8.1", ".", "conventional-changelog CHANGELOG.md and a README"),
        # npm's own docs (83 pages in commands/, configuring-npm/, using-npm/): title, section and
        # description front matter, long option lists, a "See Also" list closing each command page.
        Corpus("npm-docs", "npm", "npm", "10.9.2", "docs/content", "npm's own docs (GFM with front matter)"),
        # Markdown about Markdown (57 pages): a page per lint rule, each with fenced examples of bad
        # Markdown, inline HTML in code spans, and "[click here](...)"-style ellipses inside sentences.
        Corpus("markdownlint", "npm", "markdownlint", "0.40.0", "doc", "markdownlint's rule docs (GFM)"),
        # A web framework's reference and guides in GFM: `<a id>` anchors above headings, links between
        # pages by their `.md` files, long tables.
        Corpus("fastify", "npm", "fastify", "5.12.8", "docs", "Fastify's own docs (GFM)"),
        # A logger's API reference and guides in GFM, small: one long api.md with `<a id>` anchors on each entry.
        Corpus("pino", "npm", "pino", "10.4.0", "docs", "Pino's own docs (GFM)"),
        # Jupyter notebooks as pages (32 of them, not executed: no outputs), beside .rst pages not read.
        Corpus("nbsphinx", "pypi", "nbsphinx", "0.9.8", "doc", "Sphinx + nbsphinx (notebooks)"),
        # Found by a survey of the registries for generators not yet tried (2026-12-06):
        # Quarto (.qmd): `::: {.callout-note}` and layout divs, ```{python} cells with `#|` options, {{< video >}}.
        Corpus("great-tables", "pypi", "great-tables", "1.1.0", "docs", "Quarto (great_tables' own site)"),
        # VitePress, English and Chinese pages: `::: details`, `::: code-group`, `layout: home` front matter.
        Corpus("astrbot", "pypi", "astrbot", "4.29.3", "docs", "VitePress (AstrBot's docs, en + zh)"),
        # Astro Starlight: `sidebar: {order: 2}` front matter, links by route (/using/config/).
        Corpus("jupytext", "pypi", "jupytext", "1.19.7", "website/src/content/docs", "Astro Starlight (Jupytext)"),
        # VuePress 2 with vuepress-theme-hope: `::: tabs` with `@tab`, `@[code python](…)` imports.
        Corpus("taskiq", "pypi", "taskiq", "0.13.0", "docs", "VuePress 2 (taskiq's docs)"),
        # Mintlify MDX, 600 pages: components (<ParamField>, <Tip>), snippets exporting React components.
        Corpus("fastmcp", "pypi", "fastmcp", "4.2.3", "docs", "Mintlify MDX (FastMCP's docs)"),
        # A large Sphinx manual with numpydoc, $math$ in rST, ..plot:: and MyST pages beside rST.
        Corpus("sympy", "pypi", "sympy", "1.14.0", "doc/src", "Sphinx, rST + MyST (SymPy's docs)"),
        # Zensical / MkDocs Material with mkdocstrings, callouts (`> TIP: **Hint**`), markdown-exec.
        Corpus("griffe", "pypi", "griffe", "2.4.1", "docs", "Zensical / MkDocs Material (griffe's docs)"),
        # Sphinx with MyST-NB and sphinx-design: ::::{grid}, {margin}, code-cell notebooks in markdown.
        Corpus("sphinx-book-theme", "pypi", "sphinx-book-theme", "1.4.0", "docs", "Sphinx + MyST-NB + sphinx-design"),
        # GFM written for docsify (its index.html not shipped): links from the repository's root.
        Corpus("undici", "npm", "undici", "7.30.3", "docs/docs", "GFM for docsify (undici's API docs)"),
        # AsciiDoc: git's manual and man pages (2.55 writes them as .adoc; Debian unstable's git-doc ships
        # the sources), with include::, ifdef::, linkgit:, labeled lists, [verse]/[synopsis] and `+` continuations.
        Corpus("git-doc", "debian", "git-doc", "1:2.55.0-1", "usr/share/doc/git-doc", "AsciiDoc (git's manual)",
               pool="pool/main/g/git/git-doc_2.55.0-1_all.deb",
               sha256="fdb1a7385ac0b44334132a1490d36093d39f80c16818c9fabd37a62c259d1605"),
        # AsciiDoc for Antora: CRC's getting-started guide (modules/*/pages, partial$ includes, attributes set by
        # the playbook one folder up, kept here beside the pages), shipped in Debian unstable's Go source package.
        Corpus("crc-docs", "debian", "golang-github-crc-org-crc-dev", "2.34.0+ds1-2",
               "usr/share/gocode/src/github.com/crc-org/crc/docs", "AsciiDoc for Antora (CRC's guide)",
               pool="pool/main/g/golang-github-crc-org-crc/golang-github-crc-org-crc-dev_2.34.0+ds1-2_all.deb",
               sha256="8db9acafa1df75a9302493538c8cbb0740890708d6b9cf962f45cd1e57ae26ce",
               above=("antora-playbook.yml",)),
        # GitHub-flavoured: > [!NOTE] alerts, eslint-doc-generator comments.
        Corpus(
            "eslint-plugin-import", "npm", "eslint-plugin-import", "2.32.0", "docs",
            "GitHub-flavoured (eslint-doc-generator)",
        ),
        # Surveyed at stop 74 for sites no question set had read:
        # MyST markdown beside rST, with {include} of the README and changelog fragments.
        Corpus("attrs", "pypi", "attrs", "26.1.0", "docs", "Sphinx + MyST (attrs' docs)"),
        # Sphinx rST with autodoc API pages, versionchanged notes and a long upgrading guide.
        Corpus("marshmallow", "pypi", "marshmallow", "4.4.0", "docs", "Sphinx, reStructuredText (marshmallow)"),
        Corpus("anyio", "pypi", "anyio", "4.16.0", "docs", "Sphinx, reStructuredText (AnyIO)"),
        # A theme's own docs: MyST and rST side by side, a notebook, component galleries (kitchen sink).
        Corpus("pydata-sphinx-theme", "pypi", "pydata-sphinx-theme", "0.24.0", "docs",
               "Sphinx, MyST + rST + notebook (PyData theme)"),
        Corpus("cattrs", "pypi", "cattrs", "26.2.1", "docs", "Sphinx, MyST + rST (cattrs)"),
        # Sphinx rST with cog-generated option tables, a long FAQ and change history.
        Corpus("coverage", "pypi", "coverage", "7.18.0", "doc", "Sphinx, reStructuredText (coverage.py)"),
        Corpus("urllib3", "pypi", "urllib3", "2.8.0", "docs", "Sphinx, reStructuredText (urllib3)"),
        Corpus("trio", "pypi", "trio", "0.35.0", "docs/source", "Sphinx, reStructuredText (Trio)"),
        # A large Sphinx manual (188 rST pages): changelog fragments, dialect pages, ORM and Core tutorials.
        Corpus("sqlalchemy", "pypi", "sqlalchemy", "2.1.9", "doc/build", "Sphinx, reStructuredText (SQLAlchemy)"),
        Corpus("tox", "pypi", "tox", "4.67.17", "docs", "Sphinx, reStructuredText (tox)"),
        Corpus("nox", "pypi", "nox", "2026.10.20", "docs", "Sphinx, MyST + rST (nox)"),
        # Sphinx at size with its own extensions: pydoctor's :py: and :api: roles, listings included by
        # literalinclude; cryptography's hazmat directives; Pyramid's narrative docs and tutorials.
        Corpus("twisted", "pypi", "twisted", "26.10.0", "docs", "Sphinx, reStructuredText (Twisted)"),
        Corpus("cryptography", "pypi", "cryptography", "51.0.1", "docs", "Sphinx, reStructuredText (cryptography)"),
        Corpus("pyramid", "pypi", "pyramid", "2.1", "docs", "Sphinx, reStructuredText (Pyramid)"),
    )
}


# --------------------------------------------------------------------------- http


def _get(url: str, what: str, accept: str | None = None) -> bytes:
    headers = {"User-Agent": "trigsight-bench-corpora"}
    if accept:
        headers["Accept"] = accept
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=TIMEOUT) as r:
            return r.read()
    except urllib.error.HTTPError as e:
        if e.code == 404:
            raise FetchError(f"{what}: not found at {url} (HTTP 404)") from None
        raise FetchError(f"{what}: {url} answered HTTP {e.code}") from None
    except (urllib.error.URLError, TimeoutError, OSError) as e:
        reason = getattr(e, "reason", e)
        raise FetchError(f"{what}: registry unreachable ({urllib.parse.urlsplit(url).netloc}: {reason})") from None


def _download(url: str, target: Path, check, what: str) -> Path:
    """Download url to target (cached); check(bytes) raises FetchError on a bad digest."""
    if target.exists():
        data = target.read_bytes()
        try:
            check(data)
            return target
        except FetchError:
            target.unlink()
    data = _get(url, what)
    check(data)
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_suffix(target.suffix + ".part")
    tmp.write_bytes(data)
    os.replace(tmp, target)
    return target


# --------------------------------------------------------------------------- registries


def _pypi_sdist(c: Corpus, downloads: Path, pypi_url: str) -> tuple[Path, str]:
    norm = re.sub(r"[-_.]+", "-", c.package).lower()
    index = json.loads(
        _get(f"{pypi_url.rstrip('/')}/simple/{norm}/", f"{c.name}: PyPI index of {c.package}",
             accept="application/vnd.pypi.simple.v1+json")
    )
    stem = re.sub(r"[-_.]+", "_", c.package).lower()
    wanted = {f"{stem}-{c.version}.tar.gz", f"{c.package}-{c.version}.tar.gz", f"{norm}-{c.version}.tar.gz"}
    files = [f for f in index.get("files", []) if f["filename"].lower() in {w.lower() for w in wanted}]
    if not files:
        raise FetchError(f"{c.name}: PyPI has no sdist for {c.package}=={c.version}")
    f = files[0]
    sha256 = f["hashes"]["sha256"]

    def check(data: bytes) -> None:
        if hashlib.sha256(data).hexdigest() != sha256:
            raise FetchError(f"{c.name}: {f['filename']} does not match PyPI's sha256")

    return _download(f["url"], downloads / f["filename"], check, c.name), f["url"]


def _npm_tarball(c: Corpus, downloads: Path, npm_registry: str) -> tuple[Path, str]:
    quoted = c.package.replace("/", "%2f")
    meta = json.loads(_get(f"{npm_registry.rstrip('/')}/{quoted}/{c.version}", f"{c.name}: npm metadata of {c.package}"))
    dist = meta.get("dist") or {}
    url, integrity = dist.get("tarball"), dist.get("integrity", "")
    if not url:
        raise FetchError(f"{c.name}: npm gives no tarball for {c.package}@{c.version}")

    def check(data: bytes) -> None:
        if integrity.startswith("sha512-"):
            ok = base64.b64encode(hashlib.sha512(data).digest()).decode() == integrity[7:]
        else:
            ok = hashlib.sha1(data).hexdigest() == dist.get("shasum")
        if not ok:
            raise FetchError(f"{c.name}: {url.rsplit('/', 1)[-1]} does not match npm's digest")

    filename = c.package.replace("@", "").replace("/", "-") + f"-{c.version}.tgz"
    return _download(url, downloads / filename, check, c.name), url


def _debian_deb(c: Corpus, downloads: Path) -> tuple[Path, str]:
    """apt-get download PACKAGE=VERSION into the download cache."""
    arch = "all"
    stem = f"{c.package}_{c.version.replace(':', '%3a')}_{arch}.deb"
    target = downloads / stem
    if c.pool:
        url = f"https://deb.debian.org/debian/{c.pool}"

        def check(data: bytes) -> None:
            if hashlib.sha256(data).hexdigest() != c.sha256:
                raise FetchError(f"{c.name}: {c.pool} does not match the digest Debian's Packages index gives")
        return _download(url, target, check, f"{c.name}: {url} (the pinned version may have left Debian)"), url
    if target.exists():
        return target, f"apt {c.package}={c.version}"
    if not shutil.which("apt-get"):
        raise FetchError(f"{c.name}: needs apt-get (a Debian machine) to download {c.package}={c.version}")
    downloads.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=downloads) as tmp:
        p = subprocess.run(
            ["apt-get", "download", "-q", f"{c.package}={c.version}"],
            cwd=tmp, capture_output=True, text=True, timeout=600,
        )
        debs = list(Path(tmp).glob("*.deb"))
        if p.returncode != 0 or not debs:
            err = " ".join(line for line in p.stderr.splitlines() if line.startswith("E:")) or p.stderr.strip()
            if "Version" in err and "was not found" in err or "Unable to locate" in err:
                raise FetchError(
                    f"{c.name}: apt offers no {c.package}={c.version} (run apt-get update; "
                    f"the pinned version may have left the archive): {err}"
                )
            raise FetchError(f"{c.name}: apt-get download {c.package}={c.version} failed: {err or 'no .deb'}")
        os.replace(debs[0], target)
    return target, f"apt {c.package}={c.version}"


# --------------------------------------------------------------------------- extraction


def _deb_data_tar(deb: Path) -> tarfile.TarFile:
    """The data.tar.* member of a .deb (an ar archive), read with the stdlib."""
    raw = deb.read_bytes()
    if not raw.startswith(b"!<arch>\n"):
        raise FetchError(f"{deb.name}: not a Debian package")
    pos = 8
    while pos + 60 <= len(raw):
        header = raw[pos:pos + 60]
        name = header[:16].decode().strip().rstrip("/")
        size = int(header[48:58].decode().strip())
        body = raw[pos + 60:pos + 60 + size]
        if name.startswith("data.tar"):
            if name.endswith(".zst"):
                raise FetchError(f"{deb.name}: zstd-compressed data needs dpkg-deb")
            return tarfile.open(fileobj=io.BytesIO(body), mode="r:*")
        pos += 60 + size + (size % 2)
    raise FetchError(f"{deb.name}: no data.tar member")


def _members(archive: tarfile.TarFile, subdir: str, strip_top: bool):
    """Yield (relative path under subdir, bytes) for regular files under subdir."""
    prefix = PurePosixPath(subdir)
    for m in archive:
        if not m.isfile():
            continue
        parts = PurePosixPath(re.sub(r"^(?:\./)+", "", m.name)).parts
        if strip_top:
            parts = parts[1:]
        path = PurePosixPath(*parts) if parts else PurePosixPath()
        try:
            rel = path.relative_to(prefix)
        except ValueError:
            continue
        if any(p in ("..", "") for p in rel.parts):
            continue
        f = archive.extractfile(m)
        if f is not None:
            yield rel, f.read()


def _select(files: dict[PurePosixPath, bytes]) -> tuple[dict[PurePosixPath, bytes], dict[str, int]]:
    """Keep .md, .mdx, .ipynb, .rst, .qmd and .adoc pages (gunzipping .md.gz), the images some page names, Docusaurus's
    `_category_` files (a folder's label and position), Sphinx's conf.py and the .txt files it may make pages,
    and the settings files of other generators (SETTINGS_FILES, VitePress's .vitepress/config.*)."""
    pages: dict[PurePosixPath, bytes] = {}
    others: dict[PurePosixPath, bytes] = {}
    for rel, data in files.items():
        if rel.name.endswith(".md.gz"):
            pages[rel.with_name(rel.name[:-3])] = gzip.decompress(data)
        elif rel.suffix in PAGE_SUFFIXES:
            pages[rel] = data
        elif rel.name in ("_category_.json", "_category_.yml", "_category_.yaml", "conf.py") or rel.suffix == ".txt":
            pages[rel] = data
        elif rel.name in SETTINGS_FILES or (rel.parts[:1] == (".vitepress",) and rel.stem == "config"):
            pages[rel] = data
        else:
            others[rel] = data
    text = b"\n".join(pages.values())
    kept = dict(pages)
    dropped: dict[str, int] = {}
    for rel, data in others.items():
        if rel.suffix.lower() in IMAGE_SUFFIXES and rel.name.encode() in text:
            kept[rel] = data
        else:
            key = rel.suffix.lower() or rel.name
            dropped[key] = dropped.get(key, 0) + 1
    return kept, dropped


def _write(dest: Path, kept: dict[PurePosixPath, bytes]) -> None:
    for rel, data in kept.items():
        out = dest.joinpath(*rel.parts)
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_bytes(data)


def _installed_version(package: str) -> str:
    try:
        p = subprocess.run(["dpkg-query", "-W", "-f=${Version}", package],
                           capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return ""
    return p.stdout.strip() if p.returncode == 0 else ""


# --------------------------------------------------------------------------- public


def _manifest_path(folder: Path) -> Path:
    return folder.parent / (folder.name + ".json")


def _key(name: str, version: str) -> str:
    return re.sub(r"[^A-Za-z0-9._+-]", "_", f"{name}-{version}")


def fetch(
    name: str,
    dest_root: Path = DEFAULT_ROOT,
    use_installed: bool = True,
    pypi_url: str = PYPI_URL,
    npm_registry: str = NPM_REGISTRY,
) -> Path:
    """Fetch corpus `name`; return the folder of its markdown (cached by version).

    `use_installed=False` skips an installed Debian docs folder and downloads the
    pinned package instead (for the Node corpus: nodejs-doc 18.x rather than the
    image's nodejs 20.x).

    A manifest (registry, version, url, pages, dropped files) is written next to
    the folder as ``<folder>.json``; see `manifest()`.
    """
    if name not in CORPORA:
        raise FetchError(f"unknown corpus {name!r}; known: {', '.join(CORPORA)}")
    c = CORPORA[name]
    dest_root = Path(dest_root)
    downloads = dest_root / "_downloads"

    version, origin, url = c.version, c.source, ""
    installed = (
        use_installed and c.installed_dir and Path(c.installed_dir).is_dir()
        and any(Path(c.installed_dir).glob("*.md"))
    )
    if installed:
        version = _installed_version(c.installed_package) or "installed"
        origin = f"installed Debian package {c.installed_package}={version} ({c.installed_dir})"

    dest = dest_root / _key(name, version)
    if dest.is_dir() and _manifest_path(dest).exists():
        return dest

    if installed:
        base = Path(c.installed_dir)
        files = {PurePosixPath(p.relative_to(base).as_posix()): p.read_bytes()
                 for p in sorted(base.rglob("*")) if p.is_file()}
    else:
        if c.registry == "pypi":
            archive, url = _pypi_sdist(c, downloads, pypi_url)
        elif c.registry == "npm":
            archive, url = _npm_tarball(c, downloads, npm_registry)
        else:
            if c.installed_dir and use_installed:
                why = (f"{c.installed_dir} has no .md files" if Path(c.installed_dir).is_dir()
                       else f"{c.installed_dir} is absent")
                print(f"fetch: {name}: {why} (Debian's own nodejs package ships none); "
                      f"falling back to {c.source}", file=sys.stderr)
            archive, url = _debian_deb(c, downloads)
        try:
            if c.registry == "debian":
                with _deb_data_tar(archive) as tar:
                    files = dict(_members(tar, c.subdir, strip_top=False))
                    if c.above:
                        parent = str(PurePosixPath(c.subdir).parent)
                        files.update((rel, data) for rel, data in _members(tar, parent, strip_top=False)
                                     if str(rel) in c.above)
            else:
                with tarfile.open(archive, "r:*") as tar:
                    files = dict(_members(tar, c.subdir, strip_top=True))
        except (tarfile.TarError, EOFError, OSError) as e:
            raise FetchError(f"{name}: cannot read {archive.name}: {e}") from None

    kept, dropped = _select(files)
    pages = sorted(str(p) for p in kept if p.suffix in PAGE_SUFFIXES)
    if not pages:
        raise FetchError(f"{name}: {origin} has no markdown under {c.subdir}/")

    dest_root.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{name}-", dir=dest_root))
    try:
        _write(tmp, kept)
        if dest.exists():
            shutil.rmtree(dest)
        os.replace(tmp, dest)
    finally:
        if tmp.exists():
            shutil.rmtree(tmp)
    manifest = {
        "name": name, "generator": c.generator, "registry": c.registry if not installed else "installed",
        "package": c.package if not installed else c.installed_package, "version": version,
        "pinned": f"{c.package} {c.version}", "source": origin, "url": url,
        "pages": len(pages), "images": sum(p.suffix.lower() in IMAGE_SUFFIXES for p in kept),
        "categories": sum(p.name.startswith("_category_.") for p in kept), "dropped": dropped,
    }
    _manifest_path(dest).write_text(json.dumps(manifest, indent=2) + "\n")
    return dest


def whole(name: str, dest_root: Path = DEFAULT_ROOT, pypi_url: str = PYPI_URL,
          npm_registry: str = NPM_REGISTRY) -> Path:
    """Unpack every file of a PyPI or npm corpus's archive, as its project keeps them (the README and
    changelog a page includes from above the docs folder, the code samples it literalincludes), under
    ``<cache>/<name>-<version>-whole``; return the docs folder inside it. A user releases that folder."""
    if name not in CORPORA:
        raise FetchError(f"unknown corpus {name!r}; known: {', '.join(CORPORA)}")
    c = CORPORA[name]
    if c.registry not in ("pypi", "npm"):
        raise FetchError(f"{name}: --whole reads a PyPI sdist or an npm tarball, not a {c.registry} package")
    root = Path(dest_root) / f"{_key(name, c.version)}-whole"
    docs = root.joinpath(*PurePosixPath(c.subdir).parts)
    if docs.is_dir():
        return docs
    downloads = Path(dest_root) / "_downloads"
    archive, _ = (_pypi_sdist(c, downloads, pypi_url) if c.registry == "pypi"
                  else _npm_tarball(c, downloads, npm_registry))
    tmp = root.with_name(root.name + ".part")
    shutil.rmtree(tmp, ignore_errors=True)
    try:
        with tarfile.open(archive, "r:*") as tar:
            for rel, data in _members(tar, ".", strip_top=True):
                out = tmp.joinpath(*rel.parts)
                out.parent.mkdir(parents=True, exist_ok=True)
                out.write_bytes(data)
        os.replace(tmp, root)
    except (tarfile.TarError, EOFError, OSError) as e:
        raise FetchError(f"{name}: cannot unpack {archive.name}: {e}") from None
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if not docs.is_dir():
        raise FetchError(f"{name}: {c.source} has no folder {c.subdir}/")
    return docs


def manifest(folder: Path) -> dict:
    """The manifest `fetch` wrote for a folder it returned."""
    return json.loads(_manifest_path(Path(folder)).read_text())


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Fetch real documentation corpora from package registries.")
    ap.add_argument("names", nargs="*", help=f"corpora (default: all): {', '.join(CORPORA)}")
    ap.add_argument("--dest", type=Path, default=DEFAULT_ROOT, help="cache root (default: .cache/corpora)")
    ap.add_argument("--no-installed", action="store_true",
                    help="ignore installed Debian docs; download the pinned package instead")
    ap.add_argument("--list", action="store_true", help="print the pinned sources and exit")
    ap.add_argument("--whole", action="store_true",
                    help="unpack the whole sdist or tarball (files above the docs folder that pages include "
                         "are there) and print its docs folder")
    ap.add_argument("--pypi-url", default=os.environ.get("TRIGSIGHT_PYPI_URL", PYPI_URL),
                    help="PyPI base URL serving /simple/ (env TRIGSIGHT_PYPI_URL)")
    ap.add_argument("--npm-registry", default=os.environ.get("TRIGSIGHT_NPM_REGISTRY", NPM_REGISTRY),
                    help="npm registry URL (env TRIGSIGHT_NPM_REGISTRY)")
    args = ap.parse_args(argv)
    unknown = [n for n in args.names if n not in CORPORA]
    if unknown:
        ap.error(f"unknown corpus {', '.join(unknown)}; known: {', '.join(CORPORA)}")
    names = args.names or list(CORPORA)
    if args.list:
        for n in names:
            c = CORPORA.get(n)
            print(f"{n}\t{c.generator}\t{c.sources}" if c else f"{n}\tunknown")
        return 0
    status = 0
    print("name\tversion\tsource\tpages\tfolder")
    for n in names:
        if args.whole:
            try:
                folder = whole(n, args.dest, pypi_url=args.pypi_url, npm_registry=args.npm_registry)
            except FetchError as e:
                print(f"fetch: {e}", file=sys.stderr)
                status = 1
                continue
            c = CORPORA[n]
            print(f"{n}\t{c.version}\t{c.source} (whole)\t{sum(1 for p in folder.rglob('*') if p.suffix in PAGE_SUFFIXES)}"
                  f"\t{folder}")
            continue
        try:
            folder = fetch(n, args.dest, use_installed=not args.no_installed,
                           pypi_url=args.pypi_url, npm_registry=args.npm_registry)
        except FetchError as e:
            print(f"fetch: {e}", file=sys.stderr)
            status = 1
            continue
        m = manifest(folder)
        print(f"{n}\t{m['version']}\t{m['source']}\t{m['pages']}\t{folder}")
    return status


if __name__ == "__main__":
    sys.exit(main())

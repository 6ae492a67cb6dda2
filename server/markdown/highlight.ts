/**
 * Syntax highlighting of fenced code, in the reference server's shape: Pygments' short token
 * classes on flat `<span>`s, so every Zulip client's stylesheet colours them. The grammars are
 * highlight.js's, run through lowlight, which returns a syntax tree instead of HTML: the markup is
 * built here from that tree, with every piece of text escaped by us, never taken as HTML.
 */
import { all, createLowlight } from 'lowlight';
import { escapeHtml } from './links.js';

type Lowlight = ReturnType<typeof createLowlight>;
let grammars: Lowlight | undefined;

/** The grammars are registered at the first code block rather than while the server starts. */
function lowlight(): Lowlight {
  return (grammars ??= createLowlight(all));
}

type Root = ReturnType<Lowlight['highlight']>;
type ElementContent = Root['children'][number];
type Element = Extract<ElementContent, { type: 'element' }>;

/** Past this many characters a block is shown plain: highlighting is regex work, so bound it. */
export const MAX_HIGHLIGHT_CHARS = 50_000;

/**
 * What people type after the fence, to the highlight.js grammar and the Pygments lexer name the
 * reference server puts in `data-code-language` (lexer.name, so `py` and `python3` agree).
 */
const LANGUAGES: Record<string, readonly [grammar: string, pygments: string]> = {};
function alias(pygments: string, grammar: string, ...typed: string[]) {
  for (const name of typed) LANGUAGES[name] = [grammar, pygments];
}
alias('Python', 'python', 'python', 'py', 'python3', 'py3', 'sage', 'bazel', 'starlark');
alias('Python 2.x', 'python', 'python2', 'py2');
alias('Python console session', 'python-repl', 'pycon', 'python-repl');
alias('JavaScript', 'javascript', 'javascript', 'js', 'mjs', 'cjs', 'node');
alias('TypeScript', 'typescript', 'typescript', 'ts', 'tsx');
alias('JSX', 'javascript', 'jsx', 'react');
alias('Java', 'java', 'java');
alias('Kotlin', 'kotlin', 'kotlin', 'kt');
alias('Scala', 'scala', 'scala');
alias('C', 'c', 'c', 'h');
alias('C++', 'cpp', 'cpp', 'c++', 'cxx', 'hpp');
alias('C#', 'csharp', 'csharp', 'c#', 'cs');
alias('Objective-C', 'objectivec', 'objective-c', 'objectivec', 'objc');
alias('Go', 'go', 'go', 'golang');
alias('Rust', 'rust', 'rust', 'rs');
alias('Swift', 'swift', 'swift');
alias('Dart', 'dart', 'dart');
alias('Ruby', 'ruby', 'ruby', 'rb');
alias('PHP', 'php', 'php');
alias('Perl', 'perl', 'perl', 'pl');
alias('Lua', 'lua', 'lua');
alias('R', 'r', 'r', 'splus');
alias('Julia', 'julia', 'julia', 'jl');
alias('Haskell', 'haskell', 'haskell', 'hs');
alias('OCaml', 'ocaml', 'ocaml');
alias('Elixir', 'elixir', 'elixir', 'ex', 'exs');
alias('Erlang', 'erlang', 'erlang', 'erl');
alias('Clojure', 'clojure', 'clojure', 'clj');
alias('Scheme', 'scheme', 'scheme', 'scm');
alias('Common Lisp', 'lisp', 'common-lisp', 'lisp', 'cl');
alias('Bash', 'bash', 'bash', 'sh', 'shell', 'zsh', 'ksh');
alias('Bash Session', 'shell', 'console', 'shell-session');
alias('PowerShell', 'powershell', 'powershell', 'pwsh', 'ps1', 'posh');
alias('Batchfile', 'dos', 'batch', 'bat', 'cmd', 'dos');
alias('SQL', 'sql', 'sql');
alias('PostgreSQL SQL dialect', 'pgsql', 'postgresql', 'postgres', 'pgsql');
alias('MySQL', 'sql', 'mysql');
alias('JSON', 'json', 'json', 'json-object');
alias('YAML', 'yaml', 'yaml', 'yml');
alias('TOML', 'ini', 'toml');
alias('INI', 'ini', 'ini', 'cfg', 'dosini');
alias('HTML', 'xml', 'html', 'xhtml', 'htm');
alias('XML', 'xml', 'xml');
alias('CSS', 'css', 'css');
alias('SCSS', 'scss', 'scss');
alias('Sass', 'scss', 'sass');
alias('LESS', 'less', 'less');
alias('Diff', 'diff', 'diff', 'udiff', 'patch');
alias('Markdown', 'markdown', 'markdown', 'md');
alias('reStructuredText', 'plaintext', 'rst', 'rest', 'restructuredtext');
alias('Docker', 'dockerfile', 'docker', 'dockerfile');
alias('Makefile', 'makefile', 'make', 'makefile', 'mf', 'bsdmake');
alias('CMake', 'cmake', 'cmake');
alias('Nginx configuration file', 'nginx', 'nginx');
alias('Groovy', 'groovy', 'groovy');
alias('GraphQL', 'graphql', 'graphql');
alias('Protocol Buffer', 'protobuf', 'protobuf', 'proto');
alias('Elm', 'elm', 'elm');
alias('F#', 'fsharp', 'fsharp', 'f#');
alias('VB.net', 'vbnet', 'vb.net', 'vbnet');
alias('Fortran', 'fortran', 'fortran', 'f90');
alias('MATLAB', 'matlab', 'matlab');
alias('Nix', 'nix', 'nixos', 'nix');
alias('Zig', 'zig', 'zig');
alias('TeX', 'latex', 'tex', 'latex');
alias('HTTP', 'http', 'http');
alias('Text only', 'plaintext', 'text', 'plaintext', 'txt', 'plain');

export interface CodeLanguage {
  /** the value of `data-code-language` */
  label: string;
  /** the grammar to highlight with; null: shown plain */
  grammar: string | null;
}

/** The language of a fence: known names get the lexer's name; others keep what was typed. */
export function codeLanguage(typed: string): CodeLanguage {
  const known = LANGUAGES[typed.toLowerCase()];
  if (known) return { label: known[1], grammar: lowlight().registered(known[0]) ? known[0] : null };
  const grammar = lowlight().registered(typed.toLowerCase()) ? typed.toLowerCase() : null;
  return { label: typed, grammar };
}

/** Languages of prose, where words between the grammar's tokens stay unmarked (as in Pygments). */
const PROSE = new Set(['plaintext', 'markdown', 'latex']);

/**
 * highlight.js scopes (the first class without `hljs-`, then its dotted sub-scopes) to Pygments
 * token classes. A scope not listed passes its parent's class down.
 */
const SCOPES: Record<string, string> = {
  keyword: 'k',
  built_in: 'nb',
  type: 'kt',
  literal: 'kc',
  number: 'm',
  string: 's',
  regexp: 'sr',
  subst: 'si',
  symbol: 'ss',
  'char.escape': 'se',
  comment: 'c',
  doctag: 'cs',
  meta: 'cp',
  'meta keyword': 'cp',
  'meta string': 'cpf',
  title: 'nf',
  'title.function': 'nf',
  'title.function.invoke': 'n',
  'title.class': 'nc',
  'title.class.inherited': 'nc',
  attr: 'na',
  attribute: 'na',
  property: 'na',
  variable: 'nv',
  'variable.language': 'bp',
  'variable.constant': 'no',
  params: '',
  name: 'nt',
  'selector-tag': 'nt',
  'selector-id': 'nn',
  'selector-class': 'nc',
  'selector-attr': 'na',
  'selector-pseudo': 'nd',
  'template-tag': 'sx',
  'template-variable': 'sx',
  operator: 'o',
  punctuation: 'p',
  section: 'gh',
  bullet: 'm',
  emphasis: 'ge',
  strong: 'gs',
  code: 'sb',
  link: 'nl',
  quote: 'c1',
  addition: 'gi',
  deletion: 'gd',
};

const NAMESPACE_KEYWORDS = new Set(['import', 'from', 'export', 'package', 'using', 'use']);

/** A finer Pygments class from the token's own text, where Pygments distinguishes. */
function refine(cls: string, text: string): string {
  switch (cls) {
    case 'k':
      return NAMESPACE_KEYWORDS.has(text) ? 'kn' : 'k';
    case 'm':
      if (/^0x/i.test(text)) return 'mh';
      return /^\d+$/.test(text) ? 'mi' : /^[\d_.eE+-]+[jJ]?$/.test(text) ? 'mf' : 'm';
    case 's':
      return text.startsWith('"') ? 's2' : text.startsWith("'") ? 's1' : 's';
    case 'c':
      if (text.startsWith('#!')) return 'ch';
      return text.includes('\n') || text.startsWith('/*') ? 'cm' : 'c1';
    case 'cp':
      return text.startsWith('@') ? 'nd' : 'cp';
    default:
      return cls;
  }
}

function scopeClass(element: Element, inherited: string): string {
  const names = element.properties.className;
  const first = Array.isArray(names) ? String(names[0] ?? '') : '';
  if (!first.startsWith('hljs-')) return inherited;
  // highlight.js writes `title.function` as classes ["hljs-title", "function_"].
  const rest = (Array.isArray(names) ? names.slice(1) : []).map((n) =>
    String(n).replace(/_+$/, ''),
  );
  const scope = [first.slice(5), ...rest].join('.');
  const mapped = SCOPES[scope] ?? SCOPES[first.slice(5)];
  return mapped === undefined ? inherited : mapped;
}

/**
 * Text the grammar left unmarked, split as Pygments would mark it: names, numbers, operators and
 * punctuation. One sticky pass of simple alternatives: linear in the text, no backtracking.
 */
const PLAIN_TOKEN =
  /([A-Za-z_$\u00c0-\uffff][\w$\u00c0-\uffff]*)|(\d[\w.]*)|([-+*/%=<>!&|^~?]+)|([()[\]{},;.:@]+)|(\s+)|([^])/gy;

function plainSegments(text: string, out: [string, string][]) {
  PLAIN_TOKEN.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = PLAIN_TOKEN.exec(text))) {
    const cls = m[1] ? 'n' : m[2] ? refine('m', m[2]) : m[3] ? 'o' : m[4] ? 'p' : '';
    out.push([cls, m[0]]);
  }
}

/** Where Pygments marks what highlight.js leaves plain: Python's `self`, TeX's braces. */
function pygmentsDetails(grammar: string, segments: [string, string][]): void {
  for (let i = 0; i < segments.length; i++) {
    const [cls, text] = segments[i]!;
    if (grammar === 'python' && cls === 'n' && (text === 'self' || text === 'cls'))
      segments[i] = ['bp', text];
    else if (grammar === 'latex' && cls === '' && /[{}]/.test(text)) {
      const parts = text.split(/([{}])/).filter(Boolean);
      const replaced = parts.map((part): [string, string] => [
        /^[{}]$/.test(part) ? 'nb' : '',
        part,
      ]);
      segments.splice(i, 1, ...replaced);
      i += replaced.length - 1;
    }
  }
}

/** Deeper token trees (nested template strings, say) are shown plain rather than recursed into. */
const MAX_TOKEN_DEPTH = 64;

class TooDeep extends Error {}

function collect(
  nodes: readonly ElementContent[],
  inherited: string,
  prose: boolean,
  out: [string, string][],
  depth = 0,
) {
  if (depth > MAX_TOKEN_DEPTH) throw new TooDeep();
  for (const node of nodes) {
    if (node.type === 'text') {
      if (inherited) out.push([inherited, node.value]);
      else if (prose) out.push(['', node.value]);
      else plainSegments(node.value, out);
    } else if (node.type === 'element') {
      const cls = scopeClass(node, inherited);
      // A token's class can depend on its opening text (a comment's, a string's quote).
      const own = cls && cls !== inherited ? refine(cls, leadingText(node, 32)) : cls;
      collect(node.children, own, prose, out, depth + 1);
    }
  }
}

/** The first `limit` characters (or a few more) of a token's text. */
function leadingText(node: ElementContent, limit: number): string {
  const parts: string[] = [];
  let length = 0;
  const stack: ElementContent[] = [node];
  while (stack.length && length < limit) {
    const next = stack.pop()!;
    if (next.type === 'text') {
      parts.push(next.value);
      length += next.value.length;
    } else if (next.type === 'element') {
      for (let i = next.children.length - 1; i >= 0; i--) stack.push(next.children[i]!);
    }
  }
  return parts.join('');
}

/** Flat, escaped spans; a token spanning lines is closed at each line end, as Pygments does. */
function spans(segments: readonly [string, string][]): string {
  const out: string[] = [];
  let cls = '';
  let text = '';
  const flush = () => {
    if (!text) return;
    if (!cls) out.push(escapeHtml(text));
    else if (!text.includes('\n')) out.push(`<span class="${cls}">${escapeHtml(text)}</span>`);
    else
      out.push(
        text
          .split('\n')
          .map((line) => (line ? `<span class="${cls}">${escapeHtml(line)}</span>` : ''))
          .join('\n'),
      );
  };
  for (const [segmentClass, segmentText] of segments) {
    if (segmentClass === cls) {
      text += segmentText;
    } else {
      flush();
      cls = segmentClass;
      text = segmentText;
    }
  }
  flush();
  return out.join('');
}

/** The inside of `<code>`: highlighted spans, or the escaped text when not highlighted. */
export function highlightCode(code: string, grammar: string | null): string {
  if (!grammar || grammar === 'plaintext' || code.length > MAX_HIGHLIGHT_CHARS)
    return escapeHtml(code);
  let tree: Root;
  try {
    tree = lowlight().highlight(grammar, code);
  } catch {
    return escapeHtml(code);
  }
  const segments: [string, string][] = [];
  try {
    collect(tree.children, '', PROSE.has(grammar), segments);
    pygmentsDetails(grammar, segments);
  } catch (error) {
    if (error instanceof TooDeep) return escapeHtml(code);
    throw error;
  }
  return spans(segments);
}

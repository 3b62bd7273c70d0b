/**
 * A tiny syntax highlighter for the languages models write most: JavaScript/TypeScript
 * (and JSX), Python, JSON, shell, CSS, HTML/XML, SQL. It splits code into typed tokens
 * with sticky regular expressions; the renderer colours them. Unknown languages come back
 * as one plain token. Good enough to read code, small enough for the chat chunk.
 */
export type TokenType =
  | "plain"
  | "comment"
  | "string"
  | "number"
  | "keyword"
  | "literal"
  | "function"
  | "type"
  | "property"
  | "tag"
  | "attr"
  | "operator"
  | "punctuation"
  | "variable"
  | "decorator";

export interface Token {
  type: TokenType;
  text: string;
}

type Rule = [TokenType, RegExp];

function words(list: string): RegExp {
  return new RegExp(`\\b(?:${list.split(" ").join("|")})\\b`, "y");
}

const JS_RULES: Rule[] = [
  ["comment", /\/\/[^\n]*|\/\*[\s\S]*?(?:\*\/|$)/y],
  ["string", /`(?:\\[\s\S]|[^\\`])*`?|"(?:\\.|[^\\"\n])*"?|'(?:\\.|[^\\'\n])*'?/y],
  [
    "keyword",
    words(
      "abstract as async await break case catch class const continue debugger declare default delete do else enum export extends finally for from function get if implements import in instanceof interface keyof let new of private protected public readonly return satisfies set static super switch this throw try type typeof var void while with yield",
    ),
  ],
  ["literal", words("true false null undefined NaN Infinity")],
  ["number", /\b(?:0[xX][\da-fA-F_]+|0[bB][01_]+|\d[\d_]*(?:\.\d[\d_]*)?(?:[eE][+-]?\d+)?n?)\b/y],
  ["function", /[A-Za-z_$][\w$]*(?=\s*(?:<[^>]*>)?\()/y],
  ["type", /\b[A-Z][\w$]*/y],
  ["variable", /[A-Za-z_$][\w$]*/y],
  ["operator", /=>|[=!<>]=?=?|&&|\|\||\?\?|\.\.\.|[+\-*/%&|^~?:]/y],
  ["punctuation", /[{}()[\];,.]/y],
];

/** JSX adds tags; `Map<string>` (a letter before `<`) stays a generic. */
const JSX_RULES: Rule[] = [
  JS_RULES[0] as Rule,
  JS_RULES[1] as Rule,
  ["tag", /(?<![\w$)\]])<\/?[A-Za-z][\w.-]*|\/>|(?<=["}\w])>/y],
  ...JS_RULES.slice(2),
];

const PYTHON_RULES: Rule[] = [
  ["comment", /#[^\n]*/y],
  [
    "string",
    /[rRbBfFuU]{0,2}(?:"""[\s\S]*?(?:"""|$)|'''[\s\S]*?(?:'''|$)|"(?:\\.|[^\\"\n])*"?|'(?:\\.|[^\\'\n])*'?)/y,
  ],
  ["decorator", /@[\w.]+/y],
  [
    "keyword",
    words(
      "and as assert async await break class continue def del elif else except finally for from global if import in is lambda match case nonlocal not or pass raise return try while with yield",
    ),
  ],
  ["literal", words("True False None")],
  ["number", /\b(?:0[xX][\da-fA-F_]+|\d[\d_]*(?:\.\d[\d_]*)?(?:[eE][+-]?\d+)?j?)\b/y],
  ["function", /[A-Za-z_]\w*(?=\s*\()/y],
  ["type", /\b[A-Z]\w*/y],
  ["variable", /[A-Za-z_]\w*/y],
  ["operator", /->|[=!<>]=?|\*\*|\/\/|[+\-*/%&|^~:]/y],
  ["punctuation", /[{}()[\];,.]/y],
];

const JSON_RULES: Rule[] = [
  ["property", /"(?:\\.|[^\\"\n])*"(?=\s*:)/y],
  ["string", /"(?:\\.|[^\\"\n])*"?/y],
  ["literal", words("true false null")],
  ["number", /-?\b\d+(?:\.\d+)?(?:[eE][+-]?\d+)?\b/y],
  ["punctuation", /[{}[\]:,]/y],
];

const SHELL_RULES: Rule[] = [
  ["comment", /(?<![\w$])#[^\n]*/y],
  ["string", /"(?:\\.|[^\\"])*"?|'[^']*'?/y],
  ["variable", /\$(?:\{[^}\n]*\}?|\(|[\w@#?$!*-]+)/y],
  [
    "keyword",
    words(
      "if then else elif fi for while until do done case esac in function return export local sudo",
    ),
  ],
  ["function", /(?<=^|[;&|]\s*|\n\s*|\$\s)[A-Za-z_][\w.-]*/y],
  ["attr", /(?<=\s)--?[\w-]+/y],
  ["number", /\b\d+\b/y],
  ["operator", /&&|\|\||[|&;<>]=?|=/y],
  ["plain", /[A-Za-z_][\w.-]*/y],
];

const CSS_RULES: Rule[] = [
  ["comment", /\/\*[\s\S]*?(?:\*\/|$)/y],
  ["string", /"(?:\\.|[^\\"\n])*"?|'(?:\\.|[^\\'\n])*'?/y],
  ["keyword", /@[\w-]+|!important/y],
  ["property", /--?[A-Za-z][\w-]*(?=\s*:)|[a-z-]+(?=\s*:[^:{}]*[;}])/y],
  ["number", /#[\da-fA-F]{3,8}\b|-?\b\d*\.?\d+(?:px|em|rem|%|vh|vw|s|ms|deg|fr|ch|dvh)?\b/y],
  ["function", /[\w-]+(?=\()/y],
  ["tag", /[.#]?[A-Za-z_][\w-]*|::?[\w-]+/y],
  ["punctuation", /[{}();:,>+~*[\]=]/y],
];

const SQL_RULES: Rule[] = [
  ["comment", /--[^\n]*|\/\*[\s\S]*?(?:\*\/|$)/y],
  ["string", /'(?:''|[^'])*'?/y],
  ["property", /"(?:""|[^"])*"?/y],
  [
    "keyword",
    /\b(?:select|from|where|and|or|not|insert|into|values|update|set|delete|create|table|index|view|drop|alter|add|column|primary|key|foreign|references|unique|check|default|join|left|right|inner|outer|full|cross|on|group|by|order|having|limit|offset|as|distinct|union|all|case|when|then|else|end|is|null|in|exists|between|like|ilike|asc|desc|returning|with|constraint|if|begin|commit|rollback|interval|cascade)\b/iy,
  ],
  [
    "type",
    /\b(?:int|integer|bigint|smallint|serial|bigserial|text|varchar|char|boolean|bool|numeric|decimal|real|float|double|date|time|timestamp|timestamptz|jsonb?|uuid|bytea)\b/iy,
  ],
  ["literal", /\b(?:true|false)\b/iy],
  ["number", /\b\d+(?:\.\d+)?\b/y],
  ["function", /[A-Za-z_]\w*(?=\s*\()/y],
  ["plain", /[A-Za-z_]\w*/y],
  ["operator", /[=<>!]=?|[+\-*/%|]/y],
  ["punctuation", /[(),;.]/y],
];

const LANGUAGES: Record<string, Rule[]> = {
  js: JS_RULES,
  javascript: JS_RULES,
  jsx: JSX_RULES,
  mjs: JS_RULES,
  cjs: JS_RULES,
  ts: JS_RULES,
  typescript: JS_RULES,
  tsx: JSX_RULES,
  python: PYTHON_RULES,
  py: PYTHON_RULES,
  json: JSON_RULES,
  jsonc: JSON_RULES,
  bash: SHELL_RULES,
  sh: SHELL_RULES,
  shell: SHELL_RULES,
  zsh: SHELL_RULES,
  console: SHELL_RULES,
  css: CSS_RULES,
  scss: CSS_RULES,
  sql: SQL_RULES,
  postgres: SQL_RULES,
  postgresql: SQL_RULES,
};

const LANGUAGE_NAMES: Record<string, string> = {
  js: "JavaScript",
  javascript: "JavaScript",
  jsx: "JSX",
  mjs: "JavaScript",
  cjs: "JavaScript",
  ts: "TypeScript",
  typescript: "TypeScript",
  tsx: "TSX",
  python: "Python",
  py: "Python",
  json: "JSON",
  jsonc: "JSON",
  bash: "Bash",
  sh: "Shell",
  shell: "Shell",
  zsh: "Shell",
  console: "Console",
  css: "CSS",
  scss: "SCSS",
  html: "HTML",
  xml: "XML",
  svg: "SVG",
  sql: "SQL",
  postgres: "SQL",
  postgresql: "SQL",
};

export function languageName(lang: string): string {
  return LANGUAGE_NAMES[lang.toLowerCase()] ?? (lang ? lang : "Text");
}

const MARKUP = new Set(["html", "xml", "svg", "vue"]);

export function isHighlighted(lang: string): boolean {
  const key = lang.toLowerCase();
  return key in LANGUAGES || MARKUP.has(key);
}

const ATTRIBUTE_PART = /(\s+)|(\/?>)|([^\s=>/"']+)|(=)|("[^"]*"?|'[^']*'?|[^\s>"']+)|([\s\S])/y;

/** Markup needs to know whether it is inside a tag, which the rule list cannot express. */
function highlightMarkup(code: string, push: (type: TokenType, text: string) => void): void {
  let i = 0;
  while (i < code.length) {
    const open = code.indexOf("<", i);
    if (open < 0) {
      push("plain", code.slice(i));
      return;
    }
    if (open > i) push("plain", code.slice(i, open));
    i = open;
    const comment = /<!--[\s\S]*?(?:-->|$)/y;
    comment.lastIndex = i;
    const c = comment.exec(code);
    if (c) {
      push("comment", c[0]);
      i += c[0].length;
      continue;
    }
    const name = /<!?\/?[A-Za-z][\w:.-]*/y;
    name.lastIndex = i;
    const n = name.exec(code);
    if (!n) {
      push("plain", "<");
      i++;
      continue;
    }
    push("tag", n[0]);
    i += n[0].length;
    let afterEquals = false;
    while (i < code.length) {
      ATTRIBUTE_PART.lastIndex = i;
      const part = ATTRIBUTE_PART.exec(code) as RegExpExecArray;
      const [text, space, close, attr, equals, value] = part;
      i += text.length;
      if (space) push("plain", text);
      else if (close) {
        push("tag", text);
        break;
      } else if (equals) {
        push("operator", text);
        afterEquals = true;
        continue;
      } else if (attr && !afterEquals) push("attr", text);
      else if (value || attr) push("string", text);
      else push("plain", text);
      afterEquals = false;
    }
  }
}

/** Splits `code` into tokens; adjacent tokens of one type are merged. */
export function highlight(code: string, lang: string): Token[] {
  const key = lang.toLowerCase();
  const rules = LANGUAGES[key];
  const tokens: Token[] = [];
  const push = (type: TokenType, text: string) => {
    const last = tokens.at(-1);
    if (last && last.type === type) last.text += text;
    else tokens.push({ type, text });
  };
  if (MARKUP.has(key)) {
    highlightMarkup(code, push);
    return tokens;
  }
  if (!rules) return code ? [{ type: "plain", text: code }] : [];
  let i = 0;
  outer: while (i < code.length) {
    const ch = code[i] as string;
    if (/\s/.test(ch)) {
      push("plain", ch);
      i++;
      continue;
    }
    for (const [type, pattern] of rules) {
      pattern.lastIndex = i;
      const match = pattern.exec(code);
      if (match && match[0].length > 0) {
        push(type, match[0]);
        i += match[0].length;
        continue outer;
      }
    }
    push("plain", ch);
    i++;
  }
  return tokens;
}

import {
  columnOf,
  type DomainEntity,
  type DomainField,
  domainEntitiesOf,
  primaryEntityOf,
} from "./domain-nouns";
import {
  type CodeLanguage,
  capitalise,
  contentWords,
  kindOf,
  languageOf,
  subjectOf,
} from "./subject";

/**
 * The Coder's code for a subject: the shape the subject asks for (a pricing page is a pricing
 * component, a CSV dedupe script is that script, a schema is its tables) in the language the
 * request implies. Templates, filled with the subject's own nouns; deterministic.
 */
export interface CodeDraft {
  approach: string;
  /** The fence's language tag. */
  fence: string;
  code: string;
  /** How to run or test it. */
  run: string;
  /**
   * Its tests, a second block in the same language (test_* / test… functions), so the
   * evidence-based Critic has checks to run (decisions 062, 068).
   */
  tests?: string;
}

const VERB_FORMS: readonly [RegExp, string][] = [
  [/ies$/, "y"],
  [/(ss|sh|ch|x|z)es$/, "$1"],
  [/([^s])s$/, "$1"],
];

function baseVerb(word: string): string {
  for (const [ending, replacement] of VERB_FORMS) {
    if (ending.test(word)) return word.replace(ending, replacement);
  }
  return word;
}

/** Words for a name: the clause that says what the code does ("that dedupes CSV rows"). */
function nameWords(subject: string): string[] {
  const clause =
    /\b(?:that|which|to|for|who)\s+(.+)$/i.exec(subject)?.[1] ??
    subject.replace(/^(?:a|an|the|your)\s+/i, "");
  const words = contentWords(
    clause.replace(
      /\b(?:python|typescript|javascript|rust|golang|go|bash|sql|script|function|program)\b/gi,
      "",
    ),
    3,
  ).map((w) => w.replace(/[^a-z0-9]/g, ""));
  const filtered = words.filter((w) => /^[a-z][a-z0-9]*$/.test(w));
  if (filtered.length === 0) return ["run", "task"];
  return [baseVerb(filtered[0] as string), ...filtered.slice(1)];
}

export function camelName(subject: string): string {
  return nameWords(subject)
    .map((w, i) => (i === 0 ? w : capitalise(w)))
    .join("");
}

function snakeName(subject: string): string {
  return nameWords(subject).join("_");
}

function pascalName(subject: string): string {
  return nameWords(subject).map(capitalise).join("");
}

/** The thing an API or a table is about: "a REST API for a task list" → "tasks". */
function resourceOf(subject: string): string {
  const noun =
    /\b(?:for|of|to manage|managing)\s+(?:a |an |the |your )?(?:small |simple )?([a-z]+)(?:\s+(?:list|app|tracker|manager|store|service))?\b/i.exec(
      subject,
    )?.[1] ?? "item";
  const singular = noun.toLowerCase().replace(/s$/, "");
  return singular.endsWith("y") ? `${singular.slice(0, -1)}ies` : `${singular}s`;
}

function singularOf(plural: string): string {
  if (plural.endsWith("ies")) return `${plural.slice(0, -3)}y`;
  return plural.replace(/s$/, "");
}

/** The product a page is for: "a pricing page for a SaaS app" → "SaaS app". */
function productOf(subject: string): string {
  const product =
    /\bfor\s+(?:a |an |the |your )?(.+?)(?:\s+(?:with|that|which|using|in)\b.*)?$/i.exec(
      subject,
    )?.[1];
  return product ? capitalise(product) : "Your product";
}

/** Names the artifact, unless the subject already does ("a Python script that …"). */
const NAMES_ARTIFACT =
  /^(?:a|an|the|your)\s+(?:[\w.-]+\s+){0,3}(?:script|function|program|component|module|api|class|helper|service|schema|page|form|dashboard|query|cli)\b/i;

function lead(artifact: string, subject: string): string {
  return NAMES_ARTIFACT.test(subject) ? capitalise(subject) : `${artifact} for ${subject}`;
}

function clean(text: string): string {
  return text.replace(/[<>{}`"\\]/g, "").trim();
}

function pricingComponent(subject: string): CodeDraft {
  const product = clean(productOf(subject));
  return {
    approach: `${lead("A self-contained React component", subject)}: three tiers from one data array, a monthly/yearly switch that recomputes prices, and the recommended tier highlighted.`,
    fence: "tsx",
    code: [
      'import { useState } from "react";',
      "",
      "interface Tier {",
      "  name: string;",
      "  monthly: number;",
      "  blurb: string;",
      "  features: string[];",
      "  featured?: boolean;",
      "}",
      "",
      "const TIERS: Tier[] = [",
      '  { name: "Starter", monthly: 0, blurb: "For trying it out", features: ["1 project", "Community support"] },',
      '  { name: "Pro", monthly: 29, blurb: "For growing teams", features: ["Unlimited projects", "Priority support", "Usage analytics"], featured: true },',
      '  { name: "Business", monthly: 99, blurb: "For organisations", features: ["SSO and audit log", "99.9% uptime SLA", "Dedicated manager"] },',
      "];",
      "",
      "/** Yearly billing: two months free. */",
      "const yearlyPrice = (monthly: number) => monthly * 10;",
      "",
      "export function PricingPage() {",
      '  const [billing, setBilling] = useState<"monthly" | "yearly">("monthly");',
      "  return (",
      '    <section aria-labelledby="pricing-title" className="pricing">',
      `      <h1 id="pricing-title">${product} pricing</h1>`,
      '      <div role="group" aria-label="Billing period">',
      '        <button type="button" aria-pressed={billing === "monthly"} onClick={() => setBilling("monthly")}>Monthly</button>',
      '        <button type="button" aria-pressed={billing === "yearly"} onClick={() => setBilling("yearly")}>Yearly (2 months free)</button>',
      "      </div>",
      '      <ul className="tiers">',
      "        {TIERS.map((tier) => (",
      '          <li key={tier.name} className={tier.featured ? "tier featured" : "tier"}>',
      "            <h2>{tier.name}</h2>",
      "            <p>{tier.blurb}</p>",
      '            <p className="price">',
      '              {tier.monthly === 0 ? "Free" : billing === "monthly" ? `$${tier.monthly}/month` : `$${yearlyPrice(tier.monthly)}/year`}',
      "            </p>",
      "            <ul>{tier.features.map((f) => <li key={f}>{f}</li>)}</ul>",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: this is generated source code
      '            <a href={`/signup?plan=${tier.name.toLowerCase()}`} className="cta">',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: this is generated source code
      '              {tier.monthly === 0 ? "Start free" : `Choose ${tier.name}`}',
      "            </a>",
      "          </li>",
      "        ))}",
      "      </ul>",
      "    </section>",
      "  );",
      "}",
    ].join("\n"),
    run: "Render `<PricingPage />` on the /pricing route, switch the billing period and check each tier's price and link.",
  };
}

function formFields(subject: string): [string, string, string][] {
  if (/\b(?:contact|feedback|support|enquir)/i.test(subject)) {
    return [
      ["name", "Name", "text"],
      ["email", "Email", "email"],
      ["message", "Message", "textarea"],
    ];
  }
  if (/\b(?:log ?in|sign ?in)\b/i.test(subject)) {
    return [
      ["email", "Email", "email"],
      ["password", "Password", "password"],
    ];
  }
  return [
    ["name", "Name", "text"],
    ["email", "Email", "email"],
    ["password", "Password (at least 8 characters)", "password"],
  ];
}

function formComponent(subject: string): CodeDraft {
  const fields = formFields(subject);
  const name = /\b(?:log ?in|sign ?in)\b/i.test(subject)
    ? "LoginForm"
    : /\bcontact\b/i.test(subject)
      ? "ContactForm"
      : "SignupForm";
  return {
    approach: `${lead("An accessible React form", subject)}: labelled fields, validation on submit with the error beside its field, and a status line a screen reader announces.`,
    fence: "tsx",
    code: [
      'import { type FormEvent, useState } from "react";',
      "",
      `type Field = ${fields.map(([id]) => `"${id}"`).join(" | ")};`,
      "",
      "function validate(values: Record<Field, string>): Partial<Record<Field, string>> {",
      "  const errors: Partial<Record<Field, string>> = {};",
      ...fields.flatMap(([id, label, type]) =>
        type === "email"
          ? [
              `  if (!/^\\S+@\\S+\\.\\S+$/.test(values.${id})) errors.${id} = "Enter a valid email address.";`,
            ]
          : type === "password" && /8/.test(label)
            ? [`  if (values.${id}.length < 8) errors.${id} = "Use at least 8 characters.";`]
            : [
                `  if (values.${id}.trim() === "") errors.${id} = "${label.replace(/ \(.*\)$/, "")} is required.";`,
              ],
      ),
      "  return errors;",
      "}",
      "",
      `export function ${name}({ onSubmit }: { onSubmit: (values: Record<Field, string>) => Promise<void> }) {`,
      `  const [values, setValues] = useState<Record<Field, string>>({ ${fields.map(([id]) => `${id}: ""`).join(", ")} });`,
      "  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});",
      '  const [status, setStatus] = useState("");',
      "  async function submit(event: FormEvent) {",
      "    event.preventDefault();",
      "    const found = validate(values);",
      "    setErrors(found);",
      "    if (Object.keys(found).length > 0) return;",
      '    setStatus("Sending…");',
      "    try {",
      "      await onSubmit(values);",
      '      setStatus("Done. Check your inbox.");',
      "    } catch {",
      '      setStatus("That did not work. Please try again.");',
      "    }",
      "  }",
      "  return (",
      "    <form noValidate onSubmit={submit}>",
      ...fields.flatMap(([id, label, type]) => [
        `      <label htmlFor="${id}">${label}</label>`,
        type === "textarea"
          ? `      <textarea id="${id}" value={values.${id}} aria-invalid={Boolean(errors.${id})} onChange={(e) => setValues({ ...values, ${id}: e.target.value })} />`
          : `      <input id="${id}" type="${type}" value={values.${id}} aria-invalid={Boolean(errors.${id})} onChange={(e) => setValues({ ...values, ${id}: e.target.value })} />`,
        `      {errors.${id} && <p className="error">{errors.${id}}</p>}`,
      ]),
      '      <button type="submit">Submit</button>',
      '      <p role="status">{status}</p>',
      "    </form>",
      "  );",
      "}",
    ].join("\n"),
    run: `Render \`<${name} onSubmit={...} />\`, submit it empty (each field shows its error), then with valid values.`,
  };
}

function landingComponent(subject: string): CodeDraft {
  const product = clean(productOf(subject));
  const signup = /\b(?:sign ?up|signup|newsletter|waitlist|email)\b/i.test(subject);
  return {
    approach: `${lead("A React landing page", subject)}: a hero with one clear call to action, three benefits${signup ? ", and an email signup that validates before it sends" : ""}.`,
    fence: "tsx",
    code: [
      'import { useState } from "react";',
      "",
      "const BENEFITS = [",
      `  { title: "Start in a minute", text: "${product} works straight away, no setup." },`,
      '  { title: "Made for sharing", text: "Invite friends and keep everything in one place." },',
      '  { title: "Works everywhere", text: "Phone, tablet or desktop: the same experience." },',
      "];",
      "",
      "export function LandingPage() {",
      ...(signup
        ? [
            '  const [email, setEmail] = useState("");',
            '  const [message, setMessage] = useState("");',
          ]
        : []),
      "  return (",
      "    <main>",
      '      <section className="hero" aria-labelledby="hero-title">',
      `        <h1 id="hero-title">${product}</h1>`,
      "        <p>Everything you need, in one simple place.</p>",
      '        <a className="cta" href="#signup">Get started free</a>',
      "      </section>",
      '      <section aria-label="Why people like it" className="benefits">',
      "        {BENEFITS.map((b) => (",
      "          <article key={b.title}>",
      "            <h2>{b.title}</h2>",
      "            <p>{b.text}</p>",
      "          </article>",
      "        ))}",
      "      </section>",
      ...(signup
        ? [
            '      <form id="signup" noValidate onSubmit={(event) => {',
            "        event.preventDefault();",
            '        setMessage(/^\\S+@\\S+\\.\\S+$/.test(email) ? "You are on the list. Check your inbox." : "Enter a valid email address.");',
            "      }}>",
            '        <label htmlFor="signup-email">Email</label>',
            '        <input id="signup-email" type="email" value={email} onChange={(e) => setEmail(e.target.value)} />',
            '        <button type="submit">Sign up</button>',
            '        <p role="status">{message}</p>',
            "      </form>",
          ]
        : []),
      "    </main>",
      "  );",
      "}",
    ].join("\n"),
    run: "Render `<LandingPage />` at /, check it at 375 px and 1280 px wide, and tab through it with the keyboard.",
  };
}

function dashboardComponent(subject: string): CodeDraft {
  return {
    approach: `${lead("A React dashboard", subject)}: summary cards on top, a sortable table below, with loading and empty states.`,
    fence: "tsx",
    code: [
      'import { useMemo, useState } from "react";',
      "",
      "export interface Row {",
      "  id: string;",
      "  name: string;",
      "  value: number;",
      "  updatedAt: string;",
      "}",
      "",
      "export function Dashboard({ rows, loading }: { rows: Row[]; loading: boolean }) {",
      '  const [sortBy, setSortBy] = useState<"name" | "value">("value");',
      "  const sorted = useMemo(",
      '    () => [...rows].sort((a, b) => (sortBy === "name" ? a.name.localeCompare(b.name) : b.value - a.value)),',
      "    [rows, sortBy],",
      "  );",
      "  const total = rows.reduce((sum, r) => sum + r.value, 0);",
      '  if (loading) return <p aria-busy="true">Loading…</p>;',
      "  if (rows.length === 0) return <p>No data yet. It appears here once the first entry arrives.</p>;",
      "  return (",
      '    <section aria-labelledby="dashboard-title">',
      `      <h1 id="dashboard-title">${clean(capitalise(subject))}</h1>`,
      '      <dl className="cards">',
      "        <div><dt>Total</dt><dd>{total.toLocaleString()}</dd></div>",
      "        <div><dt>Entries</dt><dd>{rows.length}</dd></div>",
      "        <div><dt>Average</dt><dd>{(total / rows.length).toFixed(1)}</dd></div>",
      "      </dl>",
      "      <table>",
      "        <thead>",
      "          <tr>",
      '            <th><button type="button" onClick={() => setSortBy("name")}>Name</button></th>',
      '            <th><button type="button" onClick={() => setSortBy("value")}>Value</button></th>',
      "            <th>Updated</th>",
      "          </tr>",
      "        </thead>",
      "        <tbody>",
      "          {sorted.map((r) => (",
      "            <tr key={r.id}><td>{r.name}</td><td>{r.value}</td><td>{r.updatedAt}</td></tr>",
      "          ))}",
      "        </tbody>",
      "      </table>",
      "    </section>",
      "  );",
      "}",
    ].join("\n"),
    run: "Render `<Dashboard rows={[]} loading={false} />` for the empty state, then with a few rows and sort by each column.",
  };
}

function genericComponent(subject: string): CodeDraft {
  const name = /\bsettings\b/i.test(subject) ? "SettingsScreen" : `${pascalName(subject)}View`;
  const title = clean(capitalise(subject));
  return {
    approach: `${lead("A React component", subject)}: one heading, the content in labelled sections, and a single primary action.`,
    fence: "tsx",
    code: [
      'import { useState } from "react";',
      "",
      `export function ${name}({ onSave }: { onSave: (notes: string) => Promise<void> }) {`,
      '  const [notes, setNotes] = useState("");',
      '  const [status, setStatus] = useState<"idle" | "saving" | "saved" | "failed">("idle");',
      "  async function save() {",
      '    setStatus("saving");',
      "    try {",
      "      await onSave(notes);",
      '      setStatus("saved");',
      "    } catch {",
      '      setStatus("failed");',
      "    }",
      "  }",
      "  return (",
      `    <section aria-labelledby="${name}-title">`,
      `      <h1 id="${name}-title">${title}</h1>`,
      `      <label htmlFor="${name}-notes">Details</label>`,
      `      <textarea id="${name}-notes" value={notes} onChange={(e) => setNotes(e.target.value)} />`,
      '      <button type="button" disabled={status === "saving"} onClick={save}>Save</button>',
      '      <p role="status">{status === "saved" ? "Saved." : status === "failed" ? "Could not save. Try again." : ""}</p>',
      "    </section>",
      "  );",
      "}",
    ].join("\n"),
    run: `Render \`<${name} onSave={async () => {}} />\` and try saving with and without a failing \`onSave\`.`,
  };
}

function htmlPage(subject: string): CodeDraft {
  const title = clean(capitalise(subject));
  const pricing = /\bpric/i.test(subject);
  return {
    approach: `${lead("Plain HTML and CSS", subject)}: semantic sections, a mobile-first layout with one breakpoint, no JavaScript needed.`,
    fence: "html",
    code: [
      "<!doctype html>",
      '<html lang="en">',
      "<head>",
      '  <meta charset="utf-8" />',
      '  <meta name="viewport" content="width=device-width, initial-scale=1" />',
      `  <title>${title}</title>`,
      "  <style>",
      "    body { font: 16px/1.5 system-ui, sans-serif; margin: 0; color: #1f2937; }",
      "    main { max-width: 64rem; margin: 0 auto; padding: 2rem 1rem; }",
      "    .grid { display: grid; gap: 1rem; }",
      "    .card { border: 1px solid #e5e7eb; border-radius: 0.5rem; padding: 1.5rem; }",
      "    .card.featured { border-color: #4f46e5; box-shadow: 0 4px 12px rgb(79 70 229 / 0.15); }",
      "    a.cta { display: inline-block; background: #4f46e5; color: #fff; padding: 0.75rem 1.25rem; border-radius: 0.5rem; }",
      "    @media (min-width: 48rem) { .grid { grid-template-columns: repeat(3, 1fr); } }",
      "  </style>",
      "</head>",
      "<body>",
      "  <main>",
      `    <h1>${title}</h1>`,
      '    <div class="grid">',
      ...(pricing
        ? [
            '      <section class="card"><h2>Starter</h2><p>Free</p><a class="cta" href="/signup?plan=starter">Start free</a></section>',
            '      <section class="card featured"><h2>Pro</h2><p>$29/month</p><a class="cta" href="/signup?plan=pro">Choose Pro</a></section>',
            '      <section class="card"><h2>Business</h2><p>$99/month</p><a class="cta" href="/signup?plan=business">Choose Business</a></section>',
          ]
        : [
            '      <section class="card"><h2>What it is</h2><p>One sentence on the value.</p></section>',
            '      <section class="card"><h2>How it works</h2><p>Three short steps.</p></section>',
            '      <section class="card"><h2>Get started</h2><a class="cta" href="#start">Start now</a></section>',
          ]),
      "    </div>",
      "  </main>",
      "</body>",
      "</html>",
    ].join("\n"),
    run: "Open the file in a browser and check it at 375 px and 1280 px wide.",
  };
}

function pythonScript(subject: string): CodeDraft {
  if (/\bpalindrome/i.test(subject)) {
    return {
      approach: `${lead("A pure Python function", subject)}: it ignores case, spaces and punctuation and compares from both ends.`,
      fence: "python",
      code: [
        "def is_palindrome(text: str) -> bool:",
        '    """True when the text reads the same backwards, ignoring case, spaces and punctuation."""',
        "    letters = [c for c in text.casefold() if c.isalnum()]",
        "    return letters == letters[::-1]",
      ].join("\n"),
      run: "Run the tests with `python -m pytest test_palindrome.py` (or call each test_ function).",
      tests: [
        "def test_mixed_case():",
        '    assert is_palindrome("Racecar")',
        "",
        "",
        "def test_ignores_spaces_and_punctuation():",
        '    assert is_palindrome("A man, a plan, a canal: Panama")',
        "",
        "",
        "def test_rejects_other_words():",
        '    assert not is_palindrome("palindrome")',
        "",
        "",
        "def test_empty_string():",
        '    assert is_palindrome("")',
      ].join("\n"),
    };
  }
  if (/\bcsv\b/i.test(subject) && /\bdedup|\bduplicate/i.test(subject)) {
    return {
      approach: `${lead("A standard-library Python script", subject)}: it streams the file, keeps the first occurrence of each row (optionally by chosen columns) and reports how many it dropped.`,
      fence: "python",
      code: [
        '"""Remove duplicate rows from a CSV file, keeping the first occurrence."""',
        "import argparse",
        "import csv",
        "import sys",
        "",
        "",
        "def dedupe_rows(reader, key_columns=None):",
        '    """Yields each row whose key was not seen before; the key is the whole row by default."""',
        "    seen = set()",
        "    for row in reader:",
        "        key = tuple(row[c] for c in key_columns) if key_columns else tuple(row.values())",
        "        if key in seen:",
        "            continue",
        "        seen.add(key)",
        "        yield row",
        "",
        "",
        "def main():",
        '    parser = argparse.ArgumentParser(description="Remove duplicate CSV rows.")',
        '    parser.add_argument("source")',
        '    parser.add_argument("target")',
        '    parser.add_argument("--columns", help="comma-separated columns that define a duplicate")',
        "    args = parser.parse_args()",
        '    with open(args.source, newline="", encoding="utf-8") as src:',
        "        reader = csv.DictReader(src)",
        "        if reader.fieldnames is None:",
        '            sys.exit("The file is empty.")',
        '        columns = args.columns.split(",") if args.columns else None',
        "        missing = [c for c in columns or [] if c not in reader.fieldnames]",
        "        if missing:",
        "            sys.exit(f\"Unknown columns: {', '.join(missing)}\")",
        '        with open(args.target, "w", newline="", encoding="utf-8") as dst:',
        "            writer = csv.DictWriter(dst, fieldnames=reader.fieldnames)",
        "            writer.writeheader()",
        "            kept = total = 0",
        "            for row in dedupe_rows(reader, columns):",
        "                writer.writerow(row)",
        "                kept += 1",
        "            total = reader.line_num - 1",
        '    print(f"Kept {kept} rows, dropped {total - kept} duplicates.")',
        "",
        "",
        'if __name__ == "__main__":',
        "    main()",
      ].join("\n"),
      run: "Run `python dedupe_csv.py input.csv output.csv --columns email`; test `dedupe_rows` with two identical rows and one different row.",
    };
  }
  if (/\b(?:api|endpoint|rest)\b/i.test(subject)) {
    const plural = resourceOf(subject);
    const one = singularOf(plural);
    const type = capitalise(one);
    return {
      approach: `${lead("A FastAPI service", subject)}: typed models, create/list/read/delete routes for /${plural}, and 404s for unknown ids.`,
      fence: "python",
      code: [
        "from itertools import count",
        "",
        "from fastapi import FastAPI, HTTPException",
        "from pydantic import BaseModel, Field",
        "",
        "app = FastAPI()",
        "",
        "",
        `class ${type}In(BaseModel):`,
        "    title: str = Field(min_length=1, max_length=200)",
        "    done: bool = False",
        "",
        "",
        `class ${type}(${type}In):`,
        "    id: int",
        "",
        "",
        `${plural}: dict[int, ${type}] = {}`,
        "ids = count(1)",
        "",
        "",
        `@app.post("/${plural}", status_code=201)`,
        `def create_${one}(body: ${type}In) -> ${type}:`,
        `    ${one} = ${type}(id=next(ids), **body.model_dump())`,
        `    ${plural}[${one}.id] = ${one}`,
        `    return ${one}`,
        "",
        "",
        `@app.get("/${plural}")`,
        `def list_${plural}() -> list[${type}]:`,
        `    return list(${plural}.values())`,
        "",
        "",
        `@app.get("/${plural}/{${one}_id}")`,
        `def read_${one}(${one}_id: int) -> ${type}:`,
        `    if ${one}_id not in ${plural}:`,
        `        raise HTTPException(404, "${type} not found")`,
        `    return ${plural}[${one}_id]`,
        "",
        "",
        `@app.delete("/${plural}/{${one}_id}", status_code=204)`,
        `def delete_${one}(${one}_id: int) -> None:`,
        `    if ${plural}.pop(${one}_id, None) is None:`,
        `        raise HTTPException(404, "${type} not found")`,
      ].join("\n"),
      run: `Run \`uvicorn main:app --reload\`, then \`curl -X POST localhost:8000/${plural} -H 'content-type: application/json' -d '{"title":"first"}'\`.`,
    };
  }
  const name = snakeName(subject);
  return {
    approach: `${lead("A small Python module", subject)}: one pure function that does the work, input checks with clear errors, and a command-line entry point.`,
    fence: "python",
    code: [
      `"""${clean(capitalise(subject))}."""`,
      "import argparse",
      "import sys",
      "",
      "",
      `def ${name}(lines: list[str]) -> list[str]:`,
      '    """Applies the transformation to each non-empty line, in order."""',
      "    result = []",
      "    for number, line in enumerate(lines, start=1):",
      "        text = line.strip()",
      "        if not text:",
      "            continue",
      "        if len(text) > 10_000:",
      '            raise ValueError(f"line {number} is too long")',
      "        result.append(text)",
      "    return result",
      "",
      "",
      "def main() -> None:",
      `    parser = argparse.ArgumentParser(description="${clean(capitalise(subject))}")`,
      '    parser.add_argument("path", nargs="?", help="input file (default: standard input)")',
      "    args = parser.parse_args()",
      '    source = open(args.path, encoding="utf-8") if args.path else sys.stdin',
      "    with source:",
      `        for line in ${name}(source.readlines()):`,
      "            print(line)",
      "",
      "",
      'if __name__ == "__main__":',
      "    main()",
    ].join("\n"),
    run: `Run \`python ${name}.py input.txt\`; test \`${name}\` with an empty line and an over-long line.`,
  };
}

/** The entity an API serves: the domain's (books, members, loans), else one named by the subject. */
function apiEntity(subject: string): DomainEntity {
  return (
    primaryEntityOf(subject) ?? {
      plural: resourceOf(subject),
      fields: [
        { name: "name", ts: "string", sql: "text NOT NULL", example: "first" },
        { name: "notes", ts: "string", sql: "text NOT NULL", example: "" },
      ],
    }
  );
}

/** The checks of a POST body, one per field, each answering 400 with what is wrong. */
function fieldChecks(fields: readonly DomainField[]): string[] {
  return fields.flatMap((field) => {
    const value = `body.${field.name}`;
    if (field.ts === "string" && field.example !== "") {
      return [
        `      if (typeof ${value} !== "string" || ${value}.trim() === "") {`,
        `        return send(res, 400, { error: "${field.name} is required" });`,
        "      }",
      ];
    }
    if (field.ts === "number") {
      return [
        `      if (typeof ${value} !== "number" || !Number.isInteger(${value})) {`,
        `        return send(res, 400, { error: "${field.name} must be a whole number" });`,
        "      }",
      ];
    }
    return [];
  });
}

function fieldValue(field: DomainField): string {
  const value = `body.${field.name}`;
  if (field.ts === "boolean") return `${value} === true`;
  if (field.ts === "number") return `${value} as number`;
  return field.example === "" ? `String(${value} ?? "").trim()` : `(${value} as string).trim()`;
}

function tsApi(subject: string): CodeDraft {
  const entity = apiEntity(subject);
  const plural = entity.plural;
  const one = singularOf(plural);
  const type = capitalise(one);
  const required = entity.fields.filter((f) => f.ts !== "boolean" && f.example !== "");
  const example = Object.fromEntries(required.map((f) => [f.name, f.example]));
  const firstRequired = required[0]?.name ?? "name";
  return {
    approach: `${lead("A dependency-free Node.js REST API", subject)}: JSON routes to list, create, read and delete /${plural} (${entity.fields.map((f) => f.name).join(", ")}), input validation, and 404/400 answers with a message.`,
    fence: "ts",
    code: [
      'import { createServer, type IncomingMessage, type ServerResponse } from "node:http";',
      "",
      `interface ${type} {`,
      "  id: number;",
      ...entity.fields.map((f) => `  ${f.name}: ${f.ts};`),
      "}",
      "",
      `const ${plural} = new Map<number, ${type}>();`,
      "let nextId = 1;",
      "",
      "function send(res: ServerResponse, status: number, body?: unknown) {",
      '  res.writeHead(status, { "content-type": "application/json" });',
      "  res.end(body === undefined ? undefined : JSON.stringify(body));",
      "}",
      "",
      "async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {",
      '  let raw = "";',
      "  for await (const chunk of req) raw += chunk;",
      "  return raw ? JSON.parse(raw) : {};",
      "}",
      "",
      "export const server = createServer(async (req, res) => {",
      '  const [, resource, rawId] = (req.url ?? "/").split("/");',
      `  if (resource !== "${plural}") return send(res, 404, { error: "Not found" });`,
      "  const id = rawId ? Number(rawId) : null;",
      "  try {",
      '    if (req.method === "GET" && id === null) return send(res, 200, [...' +
        plural +
        ".values()]);",
      '    if (req.method === "POST" && id === null) {',
      "      const body = await readJson(req);",
      ...fieldChecks(entity.fields),
      `      const ${one}: ${type} = {`,
      "        id: nextId++,",
      ...entity.fields.map((f) => `        ${f.name}: ${fieldValue(f)},`),
      "      };",
      `      ${plural}.set(${one}.id, ${one});`,
      `      return send(res, 201, ${one});`,
      "    }",
      `    const found = id === null ? undefined : ${plural}.get(id);`,
      `    if (!found) return send(res, 404, { error: "${type} not found" });`,
      '    if (req.method === "GET") return send(res, 200, found);',
      '    if (req.method === "DELETE") {',
      `      ${plural}.delete(found.id);`,
      "      return send(res, 204);",
      "    }",
      '    return send(res, 405, { error: "Method not allowed" });',
      "  } catch {",
      '    return send(res, 400, { error: "Body must be JSON" });',
      "  }",
      "});",
      "",
      "server.listen(3000);",
    ].join("\n"),
    run: `Run \`npx tsx server.ts\`, then \`curl -X POST localhost:3000/${plural} -d '${JSON.stringify(example)}'\` and \`curl localhost:3000/${plural}\`; a test posts a body without ${firstRequired} and expects 400.`,
  };
}

function tsFunction(subject: string, language: "ts" | "js"): CodeDraft {
  const typed = language === "ts";
  if (/\bpalindrome/i.test(subject)) {
    return {
      approach: `${lead(`A pure ${typed ? "TypeScript" : "JavaScript"} function`, subject)}: it ignores case, spaces and punctuation, compares from both ends, and handles the empty string.`,
      fence: language,
      code: [
        "/** True when the text reads the same backwards, ignoring case, spaces and punctuation. */",
        `export function isPalindrome(text${typed ? ": string" : ""})${typed ? ": boolean" : ""} {`,
        '  const letters = text.toLowerCase().replace(/[^\\p{L}\\p{N}]/gu, "");',
        "  for (let i = 0, j = letters.length - 1; i < j; i++, j--) {",
        "    if (letters[i] !== letters[j]) return false;",
        "  }",
        "  return true;",
        "}",
      ].join("\n"),
      run: `Run the tests with \`npx tsx palindrome.test.${language}\`; each test throws when it fails.`,
      tests: [
        `function check(condition${typed ? ": boolean" : ""}, what${typed ? ": string" : ""}) {`,
        "  if (!condition) throw new Error(what);",
        "}",
        "",
        "function testMixedCase() {",
        '  check(isPalindrome("Racecar"), "Racecar reads the same backwards");',
        "}",
        "",
        "function testIgnoresPunctuation() {",
        '  check(isPalindrome("A man, a plan, a canal: Panama"), "punctuation is ignored");',
        "}",
        "",
        "function testRejectsOtherWords() {",
        '  check(!isPalindrome("palindrome"), "palindrome is not one");',
        "}",
      ].join("\n"),
    };
  }
  if (/\b(?:fetch|retry|http client|request)/i.test(subject)) {
    return {
      approach: `${lead(`A small ${typed ? "TypeScript" : "JavaScript"} helper`, subject)}: a time-out per attempt and exponential backoff on network errors and 5xx answers.`,
      fence: language,
      code: [
        `export async function fetchJson(url${typed ? ": string" : ""}, attempts = 3)${typed ? ": Promise<unknown>" : ""} {`,
        `  let lastError${typed ? ": unknown" : ""};`,
        "  for (let attempt = 1; attempt <= attempts; attempt++) {",
        "    try {",
        "      const response = await fetch(url, { signal: AbortSignal.timeout(10_000) });",
        "      if (response.status < 500) {",
        // biome-ignore lint/suspicious/noTemplateCurlyInString: this is generated source code
        "        if (!response.ok) throw new Error(`HTTP ${response.status}`);",
        "        return await response.json();",
        "      }",
        // biome-ignore lint/suspicious/noTemplateCurlyInString: this is generated source code
        "      lastError = new Error(`HTTP ${response.status}`);",
        "    } catch (error) {",
        "      lastError = error;",
        "    }",
        "    await new Promise((resolve) => setTimeout(resolve, 200 * 2 ** attempt));",
        "  }",
        // biome-ignore lint/suspicious/noTemplateCurlyInString: this is generated source code
        "  throw new Error(`Gave up after ${attempts} attempts: ${String(lastError)}`);",
        "}",
      ].join("\n"),
      run: "Call it against a local server that fails twice and then answers, and check it returns the third answer.",
    };
  }
  const name = camelName(subject);
  const entity = primaryEntityOf(subject);
  if (entity?.fields.some((f) => f.references)) return domainFunction(subject, entity, typed);
  const type = capitalise(name);
  return {
    approach: `${lead(`A small, pure ${typed ? "TypeScript" : "JavaScript"} function`, subject)}: input checks that fail with a clear message, and a test.`,
    fence: language,
    code: [
      ...(typed
        ? [`export interface ${type}Input {`, "  id: string;", "  value: number;", "}", ""]
        : []),
      `/** ${clean(capitalise(subject))}: groups the values by id and totals them. */`,
      `export function ${name}(items${typed ? `: readonly ${type}Input[]` : ""})${typed ? ": Map<string, number>" : ""} {`,
      `  const totals = new Map${typed ? "<string, number>" : ""}();`,
      "  for (const item of items) {",
      '    if (!item.id) throw new Error("Each item needs an id");',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: this is generated source code
      "    if (!Number.isFinite(item.value)) throw new Error(`Item ${item.id} has no numeric value`);",
      "    totals.set(item.id, (totals.get(item.id) ?? 0) + item.value);",
      "  }",
      "  return totals;",
      "}",
    ].join("\n"),
    run: `Test it: \`${name}([{ id: "a", value: 2 }, { id: "a", value: 3 }])\` gives a total of 5 for "a"; an item without an id throws.`,
  };
}

/**
 * A function over the subject's own records (decision 056): the overdue-fine rules of a
 * library take its loans, with their book and member, and count them per member; never a list
 * of `{ id, value }`.
 */
function domainFunction(subject: string, entity: DomainEntity, typed: boolean): CodeDraft {
  const name = camelName(subject);
  const one = singularOf(entity.plural);
  const type = capitalise(one);
  const key = entity.fields.filter((f) => f.references).at(-1) as DomainField;
  const owner = singularOf(key.references ?? "owner");
  const example = (id: number) =>
    `{ ${[`id: ${id}`, ...entity.fields.map((f) => `${f.name}: ${JSON.stringify(f.example)}`)].join(", ")} }`;
  return {
    approach: `${lead(`A small, pure ${typed ? "TypeScript" : "JavaScript"} function`, subject)}: it takes the ${entity.plural} as they are stored, checks each one with a clear message, and counts them per ${owner}; a test.`,
    fence: typed ? "ts" : "js",
    code: [
      ...(typed
        ? [
            `export interface ${type} {`,
            "  id: number;",
            ...entity.fields.map((f) => `  ${f.name}: ${f.ts};`),
            "}",
            "",
          ]
        : []),
      `/** ${clean(capitalise(subject))}: counts the ${entity.plural} of each ${owner}. */`,
      `export function ${name}(${entity.plural}${typed ? `: readonly ${type}[]` : ""})${typed ? ": Map<number, number>" : ""} {`,
      `  const counts = new Map${typed ? "<number, number>" : ""}();`,
      `  for (const ${one} of ${entity.plural}) {`,
      `    if (!${one}.${key.name}) throw new Error(\`${type} \${${one}.id} has no ${key.name}\`);`,
      `    counts.set(${one}.${key.name}, (counts.get(${one}.${key.name}) ?? 0) + 1);`,
      "  }",
      "  return counts;",
      "}",
    ].join("\n"),
    run: `Test it: \`${name}([${example(1)}, ${example(2)}])\` counts 2 ${entity.plural} for ${owner} ${key.example}; ${/^[aeiou]/.test(one) ? "an" : "a"} ${one} without a ${key.name} throws.`,
  };
}

/** Table names from the subject's nouns: "schema for recipes, users and ratings". */
function tablesOf(subject: string): string[] {
  const list = /\b(?:for|of|with)\s+(.+)$/i.exec(subject)?.[1] ?? subject;
  const nouns = list
    .split(/,\s*|\s+and\s+|\s+&\s+/)
    .map((part) => contentWords(part, 3).at(-1) ?? "")
    .filter(
      (w) => /^[a-z]+$/.test(w) && !/^(?:schema|database|table|tables|query|queries)$/.test(w),
    );
  const plural = [...new Set(nouns.map((n) => (n.endsWith("s") ? n : `${n}s`)))].slice(0, 4);
  return plural.length > 0 ? plural : ["entries"];
}

/** A schema of the subject's own domain: its entities, their fields and foreign keys. */
function domainSchema(subject: string, entities: readonly DomainEntity[]): CodeDraft {
  const lines: string[] = [];
  for (const entity of entities) {
    const columns = ["  id          bigserial PRIMARY KEY"];
    for (const field of entity.fields) {
      columns.push(`  ${columnOf(field.name).padEnd(12)}${field.sql}`);
    }
    columns.push("  created_at  timestamptz NOT NULL DEFAULT now()");
    lines.push(`CREATE TABLE ${entity.plural} (`, columns.join(",\n"), ");", "");
  }
  const joining = entities.find((e) => e.fields.filter((f) => f.references).length >= 2);
  if (joining) {
    const [a, b] = joining.fields.filter((f) => f.references);
    if (a?.references && b?.references) {
      lines.push(
        `CREATE INDEX ${joining.plural}_${columnOf(b.name)} ON ${joining.plural} (${columnOf(b.name)}, created_at DESC);`,
        "",
        `-- Each of the newest ${joining.plural} with its ${singularOf(a.references)} and ${singularOf(b.references)}.`,
        `SELECT j.id, j.created_at, a.id AS ${singularOf(a.references)}_id, b.id AS ${singularOf(b.references)}_id\nFROM ${joining.plural} j\nJOIN ${a.references} a ON a.id = j.${columnOf(a.name)}\nJOIN ${b.references} b ON b.id = j.${columnOf(b.name)}\nORDER BY j.created_at DESC\nLIMIT 20;`,
      );
    }
  }
  const names = entities.map((e) => e.plural).join(", ");
  return {
    approach: `${lead("A PostgreSQL schema", subject)}: one table per entity (${names}), foreign keys between them, and an index for the common query.`,
    fence: "sql",
    code: lines.join("\n").trimEnd(),
    run: "Run it with `psql -f schema.sql` on a scratch database and check the query plan with `EXPLAIN ANALYZE`.",
  };
}

function sqlSchema(subject: string): CodeDraft {
  const entities = domainEntitiesOf(subject);
  if (entities && entities.length > 1) return domainSchema(subject, entities);
  const tables = tablesOf(subject);
  const owner = tables.includes("users") ? "users" : null;
  const lines: string[] = [];
  const ordered = owner ? ["users", ...tables.filter((t) => t !== "users")] : tables;
  const previous: string[] = [];
  for (const table of ordered) {
    const columns = ["  id          bigserial PRIMARY KEY"];
    if (table === "users") {
      columns.push(
        "  email       text        NOT NULL UNIQUE",
        "  name        text        NOT NULL",
      );
    } else {
      if (owner)
        columns.push("  user_id     bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE");
      const parent = previous.find((p) => p !== "users");
      if (parent && /^(?:ratings|reviews|comments|likes|votes|items|lines)$/.test(table)) {
        columns.push(
          `  ${`${singularOf(parent)}_id`.padEnd(12)}bigint      NOT NULL REFERENCES ${parent} (id) ON DELETE CASCADE`,
        );
      }
      columns.push(
        /^(?:ratings|reviews|votes)$/.test(table)
          ? "  score       smallint    NOT NULL CHECK (score BETWEEN 1 AND 5)"
          : "  title       text        NOT NULL",
      );
    }
    columns.push("  created_at  timestamptz NOT NULL DEFAULT now()");
    lines.push(`CREATE TABLE ${table} (`, columns.join(",\n"), ");", "");
    previous.push(table);
  }
  const [first] = ordered.filter((t) => t !== "users");
  if (owner && first)
    lines.push(`CREATE INDEX ${first}_user ON ${first} (user_id, created_at DESC);`, "");
  const main = first ?? ordered[0] ?? "entries";
  lines.push(
    `-- The newest ${main} with their owner${owner ? "" : "s"}.`,
    owner && first
      ? `SELECT t.id, t.created_at, u.name\nFROM ${main} t JOIN users u ON u.id = t.user_id\nORDER BY t.created_at DESC\nLIMIT 20;`
      : `SELECT * FROM ${main} ORDER BY created_at DESC LIMIT 20;`,
  );
  return {
    approach: `${lead("A PostgreSQL schema", subject)}: one table per entity (${ordered.join(", ")}), foreign keys with cascading deletes, checks on the values, and an index for the common query.`,
    fence: "sql",
    code: lines.join("\n"),
    run: "Run it with `psql -f schema.sql` on a scratch database and check the query plan with `EXPLAIN ANALYZE`.",
  };
}

function bashScript(subject: string): CodeDraft {
  return {
    approach: `${lead("A strict Bash script", subject)}: it stops on the first error, checks its arguments and says what it did.`,
    fence: "bash",
    code: [
      "#!/usr/bin/env bash",
      `# ${clean(capitalise(subject))}`,
      "set -euo pipefail",
      "",
      "if [[ $# -lt 1 ]]; then",
      '  echo "usage: $0 <directory>" >&2',
      "  exit 64",
      "fi",
      "dir=$1",
      '[[ -d "$dir" ]] || { echo "not a directory: $dir" >&2; exit 66; }',
      "",
      "count=0",
      'while IFS= read -r -d "" file; do',
      '  echo "processing $file"',
      "  count=$((count + 1))",
      'done < <(find "$dir" -type f -print0)',
      'echo "done: $count files"',
    ].join("\n"),
    run: "Run `bash script.sh ./some-folder`; try it with no argument and with a missing folder.",
  };
}

function goFunction(subject: string): CodeDraft {
  const name = capitalise(camelName(subject));
  return {
    approach: `${lead("A Go package", subject)}: one exported function that returns an error instead of panicking, and a table test.`,
    fence: "go",
    code: [
      "package main",
      "",
      "import (",
      '\t"errors"',
      '\t"fmt"',
      '\t"strings"',
      ")",
      "",
      `// ${name} trims each entry and drops empty ones; it fails on an empty input.`,
      `func ${name}(entries []string) ([]string, error) {`,
      "\tif len(entries) == 0 {",
      '\t\treturn nil, errors.New("no entries given")',
      "\t}",
      "\tout := make([]string, 0, len(entries))",
      "\tfor _, e := range entries {",
      '\t\tif t := strings.TrimSpace(e); t != "" {',
      "\t\t\tout = append(out, t)",
      "\t\t}",
      "\t}",
      "\treturn out, nil",
      "}",
      "",
      "func main() {",
      `\tresult, err := ${name}([]string{" a ", "", "b"})`,
      "\tif err != nil {",
      "\t\tfmt.Println(err)",
      "\t\treturn",
      "\t}",
      "\tfmt.Println(result)",
      "}",
    ].join("\n"),
    run: "Run `go run .`; add a table test with `go test ./...` for the empty and the mixed input.",
  };
}

function rustFunction(subject: string): CodeDraft {
  const name = snakeName(subject);
  return {
    approach: `${lead("A Rust function", subject)}: it returns a Result instead of panicking, with a unit test.`,
    fence: "rust",
    code: [
      `/// ${clean(capitalise(subject))}: trims each entry and drops empty ones.`,
      `pub fn ${name}(entries: &[&str]) -> Result<Vec<String>, String> {`,
      "    if entries.is_empty() {",
      '        return Err("no entries given".to_string());',
      "    }",
      "    Ok(entries",
      "        .iter()",
      "        .map(|e| e.trim())",
      "        .filter(|e| !e.is_empty())",
      "        .map(String::from)",
      "        .collect())",
      "}",
      "",
      "#[cfg(test)]",
      "mod tests {",
      "    use super::*;",
      "",
      "    #[test]",
      "    fn drops_empty_entries() {",
      `        assert_eq!(${name}(&[" a ", "", "b"]).unwrap(), vec!["a", "b"]);`,
      `        assert!(${name}(&[]).is_err());`,
      "    }",
      "}",
    ].join("\n"),
    run: "Run `cargo test`.",
  };
}

function pageCode(subject: string): CodeDraft {
  if (/\bpric|\btiers?\b|\bplans?\b/i.test(subject)) return pricingComponent(subject);
  if (/\b(?:landing|home ?page|homepage|website|web ?site|site)\b/i.test(subject)) {
    return landingComponent(subject);
  }
  if (
    /\b(?:form|sign ?up|signup|register|registration|log ?in|login|sign ?in|contact)\b/i.test(
      subject,
    )
  ) {
    return formComponent(subject);
  }
  if (/\b(?:dashboard|admin|analytics|stats|report)\b/i.test(subject))
    return dashboardComponent(subject);
  return genericComponent(subject);
}

/** The Coder's code for a request (the user's words, or the step's task when more telling). */
export function codeFor(request: string): CodeDraft {
  const subject = subjectOf(request);
  const language: CodeLanguage = languageOf(request);
  switch (language) {
    case "tsx":
      return pageCode(subject);
    case "html":
      return htmlPage(subject);
    case "python":
      return pythonScript(subject);
    case "sql":
      return sqlSchema(subject);
    case "bash":
      return bashScript(subject);
    case "go":
      return goFunction(subject);
    case "rust":
      return rustFunction(subject);
    default:
      if (kindOf(request) === "page") return pageCode(subject);
      if (/\b(?:api|endpoint|endpoints|rest|server|backend)\b/i.test(subject))
        return tsApi(subject);
      return tsFunction(subject, language === "js" ? "js" : "ts");
  }
}

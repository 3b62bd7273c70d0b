// Shared by the document benchmarks (documents.mjs, retrieval.mjs): the generated corpus,
// signing up and uploading through the API, and percentiles.
import PDFDocument from "pdfkit";
import { csrfHeaders } from "../test-support/api-client.mjs";

// A seeded vocabulary with a Zipf-like spread, so queries hit some chunks, not all or none.
let seed = 42;
export const random = () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
  return seed / 2 ** 31;
};
const SYLLABLES = "ka lo mi ne ru sa ti vo ze ba de fi gu ho ja ke li mo nu pa re si to".split(" ");
export const VOCABULARY = Array.from({ length: 5000 }, () =>
  Array.from(
    { length: 2 + Math.floor(random() * 3) },
    () => SYLLABLES[Math.floor(random() * SYLLABLES.length)],
  ).join(""),
);
export const word = () => VOCABULARY[Math.floor(VOCABULARY.length * random() ** 2)];
const sentence = () => {
  const words = Array.from({ length: 8 + Math.floor(random() * 10) }, word);
  return `${words.join(" ")}.`;
};
export const paragraph = (chars) => {
  let text = "";
  while (text.length < chars) text += `${sentence()} `;
  return text.trim();
};

export function makePdf(pages) {
  const doc = new PDFDocument({ autoFirstPage: false });
  const parts = [];
  doc.on("data", (part) => parts.push(part));
  const done = new Promise((resolve) => doc.on("end", () => resolve(Buffer.concat(parts))));
  for (let i = 0; i < pages; i++) {
    doc.addPage();
    doc.fontSize(10).text(`${paragraph(1500)}\n\n${paragraph(1200)}`);
  }
  doc.end();
  return done;
}

export async function signUp(url, prefix = "bench-documents") {
  const { cookie: csrfCookie, "x-csrf-token": csrfToken } = await csrfHeaders(url);
  const agreement = await (await fetch(`${url}/api/agreements/current`)).json();
  const response = await fetch(`${url}/api/user-auth/signup`, {
    method: "POST",
    headers: { "content-type": "application/json", cookie: csrfCookie, "x-csrf-token": csrfToken },
    body: JSON.stringify({
      email: `${prefix}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`,
      password: "bench-correct-horse-battery",
      firstName: "Bench",
      lastName: "User",
      agreementId: agreement.agreement.id,
    }),
  });
  if (!response.ok) throw new Error(`sign-up failed: ${response.status} ${await response.text()}`);
  const session = response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  return { cookie: `${csrfCookie}; ${session}`, csrfToken };
}

export async function upload(url, user, name, bytes) {
  const form = new FormData();
  form.append("file", new Blob([bytes]), name);
  const response = await fetch(`${url}/api/documents`, {
    method: "POST",
    headers: { cookie: user.cookie, "x-csrf-token": user.csrfToken },
    body: form,
  });
  if (response.status !== 201) throw new Error(`upload failed: ${await response.text()}`);
  return (await response.json()).document;
}

export async function waitProcessed(url, user, id) {
  for (;;) {
    const { document } = await (
      await fetch(`${url}/api/documents/${id}`, { headers: { cookie: user.cookie } })
    ).json();
    if (document.status !== "processing") return document;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export const percentile = (sorted, p) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];

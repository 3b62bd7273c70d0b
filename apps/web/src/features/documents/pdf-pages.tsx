import { useEffect, useRef, useState } from "react";
import { Spinner } from "../../components/spinner";

type PdfJs = typeof import("pdfjs-dist");
type PdfDocument = Awaited<ReturnType<PdfJs["getDocument"]>["promise"]>;

/** Pages drawn at most: a long PDF shows its first pages and its cited one. */
const MAX_PAGES = 30;
/** A file larger than this is not drawn in the browser (its text still shows). */
const MAX_PDF_BYTES = 25 * 1024 * 1024;

let pdfjs: Promise<PdfJs> | null = null;

/**
 * pdf.js and its worker, loaded on first use only. Vite serves the worker as its own asset
 * (`?url`), so the library runs its parsing off the main thread (decision 057).
 */
function loadPdfJs(): Promise<PdfJs> {
  pdfjs ??= Promise.all([
    import("pdfjs-dist"),
    import("pdfjs-dist/build/pdf.worker.min.mjs?url"),
  ]).then(([lib, worker]) => {
    lib.GlobalWorkerOptions.workerSrc = worker.default;
    return lib;
  });
  return pdfjs;
}

export interface CitedPassage {
  page: number;
  text: string;
}

interface TextItemLike {
  str: string;
  transform: number[];
  width: number;
}

/**
 * The text items of a page that hold the passage. The server read the page's text with the
 * same library, item after item, so the passage is a run of the page's characters once
 * whitespace is set aside; a passage that does not match whole is found by its first words.
 */
export function itemsOfPassage(items: readonly { str: string }[], passage: string): Set<number> {
  const owners: number[] = [];
  let page = "";
  items.forEach((item, index) => {
    for (const char of item.str) {
      if (/\s/.test(char)) continue;
      page += char.toLowerCase();
      owners.push(index);
    }
  });
  const wanted = passage.replace(/\s+/g, "").toLowerCase();
  if (!wanted) return new Set();
  let start = page.indexOf(wanted);
  let length = wanted.length;
  if (start < 0) {
    const head = wanted.slice(0, 80);
    start = page.indexOf(head);
    length = Math.min(wanted.length, page.length - start);
  }
  if (start < 0) return new Set();
  return new Set(owners.slice(start, start + length));
}

interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

function PdfPage({
  lib,
  doc,
  number,
  width,
  ratio,
  passage,
}: {
  lib: PdfJs;
  doc: PdfDocument;
  number: number;
  width: number;
  ratio: number;
  passage: string | null;
}) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const [size, setSize] = useState<{ width: number; height: number } | null>(null);
  const [boxes, setBoxes] = useState<Box[]>([]);
  const [rendered, setRendered] = useState(false);

  useEffect(() => {
    let cancelled = false;
    let task: { cancel(): void; promise: Promise<void> } | null = null;
    void (async () => {
      const page = await doc.getPage(number);
      const base = page.getViewport({ scale: 1 });
      const viewport = page.getViewport({ scale: width / base.width });
      const element = canvas.current;
      if (cancelled || !element) return;
      const ratio = window.devicePixelRatio || 1;
      element.width = Math.floor(viewport.width * ratio);
      element.height = Math.floor(viewport.height * ratio);
      setSize({ width: viewport.width, height: viewport.height });
      task = page.render({
        canvas: element,
        viewport,
        transform: ratio === 1 ? undefined : [ratio, 0, 0, ratio, 0, 0],
      });
      await task.promise;
      if (cancelled) return;
      if (passage) {
        const content = await page.getTextContent();
        const items = content.items.filter((item): item is TextItemLike & typeof item =>
          Object.hasOwn(item, "str"),
        );
        const hit = itemsOfPassage(items, passage);
        setBoxes(
          items.flatMap((item, index) => {
            if (!hit.has(index) || !item.str.trim()) return [];
            const m = lib.Util.transform(viewport.transform, item.transform);
            const height = Math.hypot(m[2] ?? 0, m[3] ?? 0);
            return [
              {
                left: m[4] ?? 0,
                top: (m[5] ?? 0) - height,
                width: item.width * viewport.scale,
                height: height * 1.15,
              },
            ];
          }),
        );
      }
      setRendered(true);
    })().catch(() => {
      // A page that cannot be drawn stays blank; the extracted text beside it still reads.
    });
    return () => {
      cancelled = true;
      task?.cancel();
    };
  }, [lib, doc, number, width, passage]);

  return (
    <figure
      className="relative mx-auto overflow-hidden rounded-lg bg-white shadow-sm ring-1 ring-ink-200"
      style={size ? { width: size.width, height: size.height } : { width, height: width * ratio }}
      data-testid="pdf-page"
      data-page={number}
      data-rendered={rendered || undefined}
      data-cited={passage ? true : undefined}
    >
      <canvas
        ref={canvas}
        role="img"
        aria-label={`Page ${number}${passage ? ", with the cited passage highlighted" : ""}`}
        className="block size-full"
      />
      {boxes.length > 0 ? (
        <div aria-hidden="true" className="pointer-events-none absolute inset-0">
          {boxes.map((box, index) => (
            <span
              // Boxes have no identity beyond their place on the page.
              // biome-ignore lint/suspicious/noArrayIndexKey: fixed for the page's life
              key={index}
              data-testid="pdf-highlight"
              className="absolute rounded-[2px] bg-amber-300/45 mix-blend-multiply ring-1 ring-amber-400/60"
              style={{ left: box.left, top: box.top, width: box.width, height: box.height }}
            />
          ))}
        </div>
      ) : null}
      <figcaption className="sr-only">Page {number}</figcaption>
    </figure>
  );
}

/**
 * A PDF's pages drawn with pdf.js, beside its extracted text, the cited passage highlighted
 * on its page and that page scrolled into view (decision 057).
 */
export function PdfPages({ url, cited }: { url: string; cited: CitedPassage | null }) {
  const box = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<
    | { status: "loading" }
    | { status: "ready"; lib: PdfJs; doc: PdfDocument; ratio: number }
    | { status: "failed"; message: string }
  >({ status: "loading" });
  const [width, setWidth] = useState(0);

  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const measure = () => setWidth(Math.max(200, Math.floor(element.clientWidth - 16)));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  useEffect(() => {
    let doc: PdfDocument | null = null;
    let cancelled = false;
    void (async () => {
      const lib = await loadPdfJs();
      const response = await fetch(url, { credentials: "same-origin" });
      if (!response.ok) throw new Error(`The file answered ${response.status}.`);
      const bytes = await response.arrayBuffer();
      if (bytes.byteLength > MAX_PDF_BYTES) throw new Error("too large");
      doc = await lib.getDocument({ data: new Uint8Array(bytes), isEvalSupported: false }).promise;
      // Pages not drawn yet take the first page's shape, so the cited one stays where the
      // scroll box put it while the others are drawn.
      const first = (await doc.getPage(1)).getViewport({ scale: 1 });
      if (cancelled) {
        void doc.destroy();
        return;
      }
      setState({ status: "ready", lib, doc, ratio: first.height / first.width });
    })().catch(() => {
      if (!cancelled) {
        setState({
          status: "failed",
          message: "The pages could not be drawn here; the extracted text is beside them.",
        });
      }
    });
    return () => {
      cancelled = true;
      if (doc) void doc.destroy();
    };
  }, [url]);

  // The cited page comes into view inside the pages' own scroll box, not the window's.
  const citedPage = cited?.page ?? null;
  const ready = state.status === "ready" && width > 0;
  useEffect(() => {
    if (!ready || citedPage === null) return;
    const container = box.current;
    const page = container?.querySelector<HTMLElement>(`[data-page="${citedPage}"]`);
    if (container && page) container.scrollTop = page.offsetTop - container.offsetTop - 8;
  }, [ready, citedPage]);

  const pages =
    state.status === "ready"
      ? Array.from({ length: state.doc.numPages }, (_, i) => i + 1).filter(
          (n) => n <= MAX_PAGES || n === citedPage,
        )
      : [];
  return (
    <section
      aria-label="Pages"
      className="rounded-2xl border border-ink-200 bg-ink-100/70"
      data-testid="pdf-pages"
    >
      <div ref={box} className="grid max-h-[80vh] gap-3 overflow-y-auto p-2">
        {state.status === "loading" ? <Spinner label="Drawing the pages…" /> : null}
        {state.status === "failed" ? (
          <p className="p-3 text-sm text-ink-600">{state.message}</p>
        ) : null}
        {state.status === "ready" && width > 0
          ? pages.map((n) => (
              <PdfPage
                key={n}
                lib={state.lib}
                doc={state.doc}
                number={n}
                width={width}
                ratio={state.ratio}
                passage={n === citedPage ? (cited?.text ?? null) : null}
              />
            ))
          : null}
        {state.status === "ready" && state.doc.numPages > MAX_PAGES ? (
          <p className="p-2 text-center text-xs text-ink-500">
            The first {MAX_PAGES} of {state.doc.numPages} pages are drawn here; the text beside them
            is the whole document's.
          </p>
        ) : null}
      </div>
    </section>
  );
}

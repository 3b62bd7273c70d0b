/** A PDF's text as pdf.js reads it (line ends where it marks them, a line per page) and its page count. */
export async function pdfText(bytes: Buffer): Promise<{ pages: number; text: string }> {
  const { getDocument } = await import("pdfjs-dist/legacy/build/pdf.mjs");
  const pdf = await getDocument({
    data: new Uint8Array(bytes),
    isEvalSupported: false,
    disableFontFace: true,
    verbosity: 0,
  }).promise;
  let text = "";
  for (let number = 1; number <= pdf.numPages; number++) {
    const content = await (await pdf.getPage(number)).getTextContent();
    for (const item of content.items) {
      if ("str" in item) text += item.str + (item.hasEOL ? "\n" : "");
    }
    text += "\n";
  }
  const pages = pdf.numPages;
  await pdf.destroy();
  return { pages, text };
}

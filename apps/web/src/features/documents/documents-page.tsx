/** The Documents screen. Placeholder until the documents feature fills it in. */
export function DocumentsPage() {
  return <h1>Documents</h1>;
}

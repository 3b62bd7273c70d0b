/**
 * Every loop in a directed graph, each as the path that closes it (a → b → … → a): for the
 * boundary tests of the server's modules and the web app's features.
 */
export function findLoops(
  nodes: Iterable<string>,
  next: (node: string) => Iterable<string>,
): string[][] {
  const loops: string[][] = [];
  const done = new Set<string>();
  const visit = (node: string, trail: string[]) => {
    const at = trail.indexOf(node);
    if (at >= 0) {
      loops.push([...trail.slice(at), node]);
      return;
    }
    if (done.has(node)) return;
    for (const to of next(node)) visit(to, [...trail, node]);
    done.add(node);
  };
  for (const node of nodes) visit(node, []);
  return loops;
}

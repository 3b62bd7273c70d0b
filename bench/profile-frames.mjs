// How a V8 CPU profile's frames are named in bench/profile-summary.mjs and
// bench/window-profile.mjs: a package, a Node module or a source folder, and a function there.

/** Where a frame's code lives: its npm package, `node:…`, `(native/VM)`, or apps/… / packages/…. */
export const where = (frame) => {
  const url = frame.url ?? "";
  const nm = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (nm) return nm[1];
  if (url.startsWith("node:")) return url;
  if (!url) return "(native/VM)";
  return url.replace(/^.*\/(apps|packages)\//, "$1/");
};

/** A frame as "function place:line". */
export const label = (frame) =>
  `${frame.functionName || "(anonymous)"} ${where(frame)}:${frame.lineNumber + 1}`;

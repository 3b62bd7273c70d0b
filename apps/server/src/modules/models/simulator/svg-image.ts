import type { Random } from "./seeded-random";

const PALETTES = [
  ["#1e1b4b", "#4f46e5", "#a5b4fc", "#f59e0b"],
  ["#042f2e", "#0d9488", "#99f6e4", "#f43f5e"],
  ["#0c1a2e", "#2563eb", "#bfdbfe", "#10b981"],
  ["#2a1a0e", "#ea580c", "#fed7aa", "#0ea5e9"],
] as const;

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * A small abstract illustration: sky gradient, sun, layered hills and a few shapes, seeded
 * by the prompt. Static SVG only (no script, no external reference), so it is safe in <img>.
 */
export function renderSvg(subject: string, random: Random): string {
  const [deep, main, light, accent] = random.pick(PALETTES);
  const sun = { x: random.int(120, 520), y: random.int(70, 150), r: random.int(28, 52) };
  const hills = [0, 1, 2].map((layer) => {
    const base = 260 + layer * 40;
    const peaks = Array.from({ length: 5 }, (_, i) => `${i * 160},${base - random.int(20, 90)}`);
    const fillColour = layer === 0 ? light : layer === 1 ? main : deep;
    return `<polygon points="0,400 ${peaks.join(" ")} 640,${base} 640,400" fill="${fillColour}" opacity="${0.55 + layer * 0.2}"/>`;
  });
  const shapes = Array.from({ length: random.int(3, 6) }, () => {
    const x = random.int(20, 620);
    const y = random.int(20, 200);
    const r = random.int(3, 9);
    return `<circle cx="${x}" cy="${y}" r="${r}" fill="${accent}" opacity="0.8"/>`;
  });
  const title = escapeXml(subject.slice(0, 120));
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 640 400" width="640" height="400" role="img" aria-label="${title}">`,
    `<title>${title}</title>`,
    `<defs><linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${deep}"/><stop offset="1" stop-color="${main}"/></linearGradient></defs>`,
    `<rect width="640" height="400" fill="url(#sky)"/>`,
    `<circle cx="${sun.x}" cy="${sun.y}" r="${sun.r}" fill="${accent}"/>`,
    ...shapes,
    ...hills,
    "</svg>",
  ].join("");
}

export function svgDataUrl(subject: string, random: Random): string {
  return `data:image/svg+xml;base64,${Buffer.from(renderSvg(subject, random)).toString("base64")}`;
}

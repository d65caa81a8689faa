"""Text contrast as a browser computes it: every visible piece of text on the page
against the background it is painted on (WCAG 2 relative luminance, alpha
blended up the ancestors), for the contrast test (issue 15 item 12: ≥ 4.5:1)."""

MINIMUM = 4.5

LOW_CONTRAST = """(minimum) => {
  const parse = (text) => {
    const m = text.match(/rgba?\\(([^)]+)\\)/);
    if (!m) { return null; }
    const parts = m[1].split(/[\\s,\\/]+/).filter(Boolean).map(Number);
    return {r: parts[0], g: parts[1], b: parts[2], a: parts.length > 3 ? parts[3] : 1};
  };
  const over = (top, bottom) => ({
    r: top.r * top.a + bottom.r * (1 - top.a), g: top.g * top.a + bottom.g * (1 - top.a),
    b: top.b * top.a + bottom.b * (1 - top.a), a: 1});
  const luminance = (c) => {
    const channel = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * channel(c.r) + 0.7152 * channel(c.g) + 0.0722 * channel(c.b);
  };
  const background = (element) => {
    const layers = [];
    for (let node = element; node && node.nodeType === 1; node = node.parentElement) {
      const colour = parse(getComputedStyle(node).backgroundColor);
      if (colour && colour.a > 0) { layers.push(colour); if (colour.a >= 1) { break; } }
    }
    let result = {r: 255, g: 255, b: 255, a: 1};
    for (let i = layers.length - 1; i >= 0; i--) { result = over(layers[i], result); }
    return result;
  };
  const opacity = (element) => {
    let value = 1;
    for (let node = element; node && node.nodeType === 1; node = node.parentElement) {
      value *= Number(getComputedStyle(node).opacity);
    }
    return value;
  };
  const seen = new Set();
  const failures = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let text = walker.nextNode(); text; text = walker.nextNode()) {
    const element = text.parentElement;
    if (!text.textContent.trim() || !element || seen.has(element)) { continue; }
    seen.add(element);
    if (element.closest("svg, [hidden], [aria-hidden=true], .visually-hidden, .sr-only, .skip-link, button[disabled]")) { continue; }
    const box = element.getBoundingClientRect();
    const style = getComputedStyle(element);
    if (!box.width || !box.height || style.visibility === "hidden") { continue; }
    const back = background(element);
    const ink = parse(style.color);
    const fore = over({...ink, a: ink.a * opacity(element)}, back);
    const [light, dark] = [luminance(fore), luminance(back)].sort((a, b) => b - a);
    const ratio = (light + 0.05) / (dark + 0.05);
    if (ratio < minimum) {
      const where = `<${element.tagName.toLowerCase()} class="${element.className}">`;
      const on = `rgb(${Math.round(back.r)},${Math.round(back.g)},${Math.round(back.b)})`;
      failures.push(`${ratio.toFixed(2)}:1 "${text.textContent.trim().slice(0, 40)}" ${where} ${style.color} on ${on}`);
    }
  }
  return failures;
}"""


def low_contrast(page) -> list[str]:
    """Every text on the page under the minimum ratio, described for the failure message."""
    return page.evaluate(LOW_CONTRAST, MINIMUM)

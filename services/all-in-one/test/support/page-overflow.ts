/** What `MEASURE_OVERFLOW` answers. */
export interface Overflow {
  scrollWidth: number;
  innerWidth: number;
  /** The visible elements whose box ends beyond the window's right edge, as "tag.class "text"". */
  beyond: string[];
}

/*
 * Run in the page through the DevTools protocol (the page's CSP allows no eval of its own); a
 * string, as the root TypeScript program has no DOM types. An element counts when it has a box
 * and is not hidden; clipped or not, a box past the right edge is what a phone would cut off.
 */
export const MEASURE_OVERFLOW = `(() => {
  const width = window.innerWidth;
  const beyond = [];
  // How far right a box shows: cut where an ancestor hides what spills out of it (a visually
  // hidden name is a 1 px box). A scrolling ancestor cuts nothing: what it hides is still there,
  // a sideways scroll away, which is what a phone layout must not need.
  const shownRight = (box, from) => {
    let right = box.right;
    for (let a = from; a; a = a.parentElement) {
      const overflow = getComputedStyle(a).overflowX;
      if (overflow === 'hidden' || overflow === 'clip') right = Math.min(right, a.getBoundingClientRect().right);
    }
    return right;
  };
  for (const el of document.body.querySelectorAll('*')) {
    const box = el.getBoundingClientRect();
    if (box.width === 0 || box.height === 0 || box.right <= width + 0.5) continue;
    if (getComputedStyle(el).visibility === 'hidden' || shownRight(box, el.parentElement) <= width + 0.5) continue;
    const name = el.tagName.toLowerCase() + (el.className && typeof el.className === 'string' ? '.' + el.className.trim().split(/\\s+/).join('.') : '');
    beyond.push(name + ' "' + (el.textContent || '').trim().slice(0, 40) + '" right=' + Math.round(box.right));
  }
  // Text too long for its box spills out of it, which no element's box shows.
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!node.textContent.trim()) continue;
    range.selectNodeContents(node);
    const box = range.getBoundingClientRect();
    if (box.width > 0 && shownRight(box, node.parentElement) > width + 0.5)
      beyond.push('text "' + node.textContent.trim().slice(0, 40) + '" right=' + Math.round(box.right));
  }
  return { scrollWidth: document.scrollingElement.scrollWidth, innerWidth: width, beyond };
})()`;

// Every element the page looks up is HTML or SVG, and both carry data-* attributes; `closest` and friends
// are typed as plain Element, which does not say so.
interface Element {
  readonly dataset: DOMStringMap;
}

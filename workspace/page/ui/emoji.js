// Slack draws emoji as images, not with the system font, so they look the same everywhere. These are small
// hand-drawn SVGs, one for every emoji the app uses (test/browser/emoji.test.ts holds it to that); any other
// :name: falls back to its Unicode character, or to its name where the browser has no colour emoji font.

const svg = (body) =>
  `<svg viewBox="0 0 20 20" width="20" height="20" aria-hidden="true" focusable="false">${body}</svg>`;
const circle = (fill, stroke = 'none') =>
  svg(`<circle cx="10" cy="10" r="8.5" fill="${fill}" stroke="${stroke}" stroke-width="1.2"/>`);
const arrow = (d) =>
  svg(
    `<rect x="1" y="1" width="18" height="18" rx="4" fill="#3b88c3"/><path d="${d}" fill="none" stroke="#fff" stroke-width="2.4" stroke-linecap="round" stroke-linejoin="round"/>`,
  );
const hourglass = (sandTop) =>
  svg(
    `<path d="M5 2.2h10M5 17.8h10" stroke="#a0041e" stroke-width="2" stroke-linecap="round"/><path d="M6.2 3c0 4.2 3.3 5 3.3 7s-3.3 2.8-3.3 7h7.6c0-4.2-3.3-5-3.3-7s3.3-2.8 3.3-7z" fill="#e1e8ed" stroke="#8899a6" stroke-width="0.8"/>${
      sandTop ? '<path d="M7.3 4.5h5.4c-.4 1.8-2.7 2.6-2.7 4c0-1.4-2.3-2.2-2.7-4z" fill="#ffac33"/>' : ''
    }<path d="M7.2 16.6c.3-2.2 2.8-3 2.8-4.6 0 1.6 2.5 2.4 2.8 4.6z" fill="#ffac33"/>`,
  );

export const EMOJI_SVG = {
  white_check_mark: svg(
    '<rect x="1" y="1" width="18" height="18" rx="4" fill="#77b255"/><path d="M5.2 10.4l3.2 3.2 6.4-7" fill="none" stroke="#fff" stroke-width="2.6" stroke-linecap="round" stroke-linejoin="round"/>',
  ),
  ballot_box_with_check: svg(
    '<rect x="1.5" y="1.5" width="17" height="17" rx="3" fill="#fff" stroke="#66757f" stroke-width="1.5"/><path d="M5.2 10.4l3.2 3.2 6.4-7" fill="none" stroke="#292f33" stroke-width="2.4" stroke-linecap="round" stroke-linejoin="round"/>',
  ),
  x: svg(
    '<path d="M4.5 4.5l11 11M15.5 4.5l-11 11" stroke="#dd2e44" stroke-width="3.4" stroke-linecap="round"/>',
  ),
  warning: svg(
    '<path d="M10 2.2L18.6 17.5H1.4z" fill="#ffcc4d" stroke="#ffcc4d" stroke-width="1.6" stroke-linejoin="round"/><rect x="9" y="6.8" width="2" height="6.2" rx="1" fill="#231f20"/><circle cx="10" cy="15.1" r="1.2" fill="#231f20"/>',
  ),
  rotating_light: svg(
    '<path d="M5 15V10a5 5 0 0 1 10 0v5z" fill="#dd2e44"/><rect x="3" y="15" width="14" height="3" rx="1" fill="#66757f"/><path d="M10 1v2.5M3 4l1.7 1.7M17 4l-1.7 1.7" stroke="#ffac33" stroke-width="1.6" stroke-linecap="round"/><ellipse cx="8.2" cy="10" rx="1.2" ry="2" fill="#fff" opacity=".7"/>',
  ),
  no_entry: svg(
    '<circle cx="10" cy="10" r="9" fill="#dd2e44"/><rect x="4" y="8.4" width="12" height="3.2" rx="1" fill="#fff"/>',
  ),
  no_entry_sign: svg(
    '<circle cx="10" cy="10" r="7.6" fill="#fff" stroke="#dd2e44" stroke-width="2.6"/><path d="M4.8 4.8l10.4 10.4" stroke="#dd2e44" stroke-width="2.6"/>',
  ),
  hourglass: hourglass(false),
  hourglass_flowing_sand: hourglass(true),
  information_source: svg(
    '<rect x="1" y="1" width="18" height="18" rx="4" fill="#3b88c3"/><circle cx="10" cy="5.6" r="1.6" fill="#fff"/><rect x="8.6" y="8.2" width="2.8" height="8" rx="1.1" fill="#fff"/>',
  ),
  grey_question: svg(
    '<path d="M6.5 7a3.5 3.5 0 1 1 5.2 3c-1.1.7-1.7 1.3-1.7 2.6" fill="none" stroke="#99aab5" stroke-width="2.8" stroke-linecap="round"/><circle cx="10" cy="16.3" r="1.7" fill="#99aab5"/>',
  ),
  test_tube: svg(
    '<g transform="rotate(35 10 10)"><rect x="7.4" y="0.8" width="5.2" height="18" rx="2.6" fill="#e1e8ed" stroke="#8899a6" stroke-width="1"/><path d="M7.4 10.5h5.2v5.7a2.6 2.6 0 0 1-5.2 0z" fill="#77b255"/><rect x="6.4" y="0.6" width="7.2" height="2" rx="1" fill="#8899a6"/></g>',
  ),
  satellite_antenna: svg(
    '<path d="M2.5 6.5a8.5 8.5 0 0 0 11 11z" fill="#ccd6dd" stroke="#8899a6" stroke-width="1"/><path d="M8 12l6.5-6.5" stroke="#66757f" stroke-width="1.6"/><circle cx="15" cy="5" r="1.9" fill="#dd2e44"/><path d="M5 19h7" stroke="#66757f" stroke-width="2" stroke-linecap="round"/>',
  ),
  large_green_circle: circle('#78b159'),
  red_circle: circle('#dd2e44'),
  white_circle: circle('#fff', '#ccd6dd'),
  large_blue_circle: circle('#55acee'),
  large_yellow_circle: circle('#fdcb58'),
  arrow_up: arrow('M10 15V5M5.5 9.5L10 5l4.5 4.5'),
  arrow_down: arrow('M10 5v10M5.5 10.5L10 15l4.5-4.5'),
  // Two arcs chasing each other, each with its head: Slack's 🔄.
  arrows_counterclockwise: arrow(
    'M14.6 8.2a5 5 0 0 0-9-1.6M5.4 11.8a5 5 0 0 0 9 1.6M5.2 3.6v3.4h3.4M14.8 16.4V13h-3.4',
  ),
  star: svg(
    '<path d="M10 1.5l2.6 5.6 6.1.7-4.5 4.2 1.2 6-5.4-3-5.4 3 1.2-6L1.3 7.8l6.1-.7z" fill="#ffac33" stroke="#ffac33" stroke-linejoin="round"/>',
  ),
  incoming_envelope: svg(
    '<rect x="1.5" y="4" width="17" height="12" rx="1.5" fill="#e1e8ed" stroke="#99aab5"/><path d="M2 5l8 6 8-6" fill="none" stroke="#99aab5" stroke-width="1.3"/><path d="M14 1.5l4 2.5-4 2.5" fill="none" stroke="#dd2e44" stroke-width="1.5"/>',
  ),
  bell: svg(
    '<path d="M10 2.2a5 5 0 0 1 5 5v4.3l2 3H3l2-3V7.2a5 5 0 0 1 5-5z" fill="#ffac33"/><circle cx="10" cy="16.8" r="2" fill="#ffac33"/>',
  ),
  chart_with_downwards_trend: svg(
    '<rect x="1.5" y="1.5" width="17" height="17" rx="2" fill="#fff" stroke="#ccd6dd"/><path d="M3.5 5.5l4.5 5 3-2.5 5 6" fill="none" stroke="#dd2e44" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"/>',
  ),
  wastebasket: svg(
    '<path d="M4.5 6h11l-1 12h-9z" fill="#ccd6dd" stroke="#8899a6"/><rect x="3" y="3.5" width="14" height="2.5" rx="1" fill="#8899a6"/><path d="M8 8.5v7M12 8.5v7" stroke="#8899a6"/>',
  ),
  wave: svg(
    '<g fill="#ffcc4d" stroke="#e5a836" stroke-width=".6"><rect x="4.2" y="3.5" width="2.6" height="8" rx="1.3" transform="rotate(-18 5.5 7.5)"/><rect x="7.2" y="1.8" width="2.6" height="8.5" rx="1.3" transform="rotate(-8 8.5 6)"/><rect x="10.2" y="2.2" width="2.6" height="8.5" rx="1.3"/><rect x="13" y="4" width="2.5" height="7.5" rx="1.25" transform="rotate(10 14.2 7.7)"/><path d="M4 10.5c0 4 2.6 7.5 6.5 7.5s5.5-3 5.5-6.5V9H4z"/></g><path d="M16.5 1.8c1 .6 1.6 1.5 1.8 2.6M1.8 13.5c.3 1.2 1 2.1 2 2.6" stroke="#5dadec" stroke-width="1.2" fill="none" stroke-linecap="round"/>',
  ),
  eyes: svg(
    '<ellipse cx="6" cy="10" rx="4.2" ry="6.5" fill="#fff" stroke="#8899a6"/><ellipse cx="14" cy="10" rx="4.2" ry="6.5" fill="#fff" stroke="#8899a6"/><circle cx="7.2" cy="11.5" r="2.2" fill="#292f33"/><circle cx="15.2" cy="11.5" r="2.2" fill="#292f33"/>',
  ),
  zzz: svg(
    '<path d="M2.5 9h5l-5 6h5M9.5 4h4l-4 5h4M14.5 1.5h3l-3 3.5h3" fill="none" stroke="#5dadec" stroke-width="1.6" stroke-linejoin="round" stroke-linecap="round"/>',
  ),
  no_bell: svg(
    '<path d="M10 2.2a5 5 0 0 1 5 5v4.3l2 3H3l2-3V7.2a5 5 0 0 1 5-5z" fill="#ffac33"/><circle cx="10" cy="16.8" r="2" fill="#ffac33"/><path d="M3 3l14 14" stroke="#dd2e44" stroke-width="2.2" stroke-linecap="round"/>',
  ),
  newspaper: svg(
    '<rect x="1.5" y="3" width="17" height="14" rx="1.5" fill="#fff" stroke="#8899a6"/><rect x="3.5" y="5" width="6" height="5" fill="#ccd6dd"/><path d="M11 5.5h5.5M11 8h5.5M3.5 12h13M3.5 14.5h13" stroke="#8899a6"/>',
  ),
  inbox_tray: svg(
    '<path d="M2 11l2.5-6h11L18 11v6H2z" fill="#e1e8ed" stroke="#8899a6"/><path d="M2 11h4.5l1 2h5l1-2H18" fill="none" stroke="#8899a6"/><path d="M10 1.5v7M7.2 5.8L10 8.6l2.8-2.8" fill="none" stroke="#3b88c3" stroke-width="1.6" stroke-linecap="round" stroke-linejoin="round"/>',
  ),
  boom: svg(
    '<path d="M10 1l1.8 4.6 4.4-2.2-1.6 4.7 4.6 1.2-4.2 2.4 2.8 4-4.8-.8-.6 4.9-2.4-4.3-3.6 3.3.6-4.9-4.8.3 3.5-3.4L1.6 8l4.8-.3L5.4 3l4 2.6z" fill="#ffac33" stroke="#f4900c" stroke-width=".6" stroke-linejoin="round"/><circle cx="10" cy="10" r="2.8" fill="#ffcc4d"/>',
  ),
  ballot_box_with_ballot: svg(
    '<rect x="2" y="8" width="16" height="10" rx="1.5" fill="#8899a6"/><rect x="5.5" y="2" width="9" height="8" fill="#fff" stroke="#66757f"/><rect x="4" y="8" width="12" height="1.6" fill="#292f33"/>',
  ),
  mag: svg(
    '<circle cx="8" cy="8" r="5.6" fill="#bbddf5" stroke="#66757f" stroke-width="2"/><path d="M12.2 12.2l5.6 5.6" stroke="#66757f" stroke-width="3" stroke-linecap="round"/>',
  ),
  alarm_clock: svg(
    '<circle cx="10" cy="11" r="7" fill="#fff" stroke="#dd2e44" stroke-width="2"/><path d="M10 6.5V11l3 2" fill="none" stroke="#292f33" stroke-width="1.6" stroke-linecap="round"/><path d="M2.2 5.2a3.2 3.2 0 0 1 4-3M17.8 5.2a3.2 3.2 0 0 0-4-3" fill="none" stroke="#dd2e44" stroke-width="1.8" stroke-linecap="round"/>',
  ),
  package: svg(
    '<path d="M10 1.8l8 3.6v9.2l-8 3.6-8-3.6V5.4z" fill="#d99e82"/><path d="M2 5.4l8 3.6 8-3.6M10 9v9.2" fill="none" stroke="#a0715c" stroke-width="1"/><path d="M6 3.6l8 3.6v3" fill="none" stroke="#f4e4d7" stroke-width="1.4"/>',
  ),
  broom: svg(
    '<path d="M17.5 2.5l-8 8" stroke="#a0715c" stroke-width="2" stroke-linecap="round"/><path d="M9.5 8.8l2 2-1.5 6.7c-3 .2-6.6-1.2-8.2-4.8z" fill="#ffcc4d" stroke="#e5a836" stroke-width=".8"/><path d="M5 14.5l4-3M7 16.5l3-3" stroke="#e5a836" stroke-width=".8"/>',
  ),
  heavy_multiplication_x: svg(
    '<path d="M4.5 4.5l11 11M15.5 4.5l-11 11" stroke="#292f33" stroke-width="3.2" stroke-linecap="round"/>',
  ),
  leftwards_arrow_with_hook: arrow('M14 5v4a2.5 2.5 0 0 1-2.5 2.5H5M8.5 8L5 11.5 8.5 15'),
  arrow_forward: svg(
    '<rect x="1" y="1" width="18" height="18" rx="4" fill="#3b88c3"/><path d="M7 5.2v9.6l7.5-4.8z" fill="#fff"/>',
  ),
  lock: svg(
    '<path d="M6 9V6.5a4 4 0 0 1 8 0V9" fill="none" stroke="#99aab5" stroke-width="2.2"/><rect x="3.5" y="8.5" width="13" height="10" rx="2" fill="#ffac33"/><circle cx="10" cy="13" r="1.5" fill="#a0715c"/>',
  ),
  octagonal_sign: svg(
    '<path d="M6.3 1.5h7.4l4.8 4.8v7.4l-4.8 4.8H6.3l-4.8-4.8V6.3z" fill="#dd2e44"/><path d="M5 10h10" stroke="#fff" stroke-width="2.4" stroke-linecap="round"/>',
  ),
  page_facing_up: svg(
    '<path d="M4 1.5h8.5l3.5 3.5v13.5H4z" fill="#fff" stroke="#99aab5"/><path d="M12.5 1.5V5H16" fill="#e1e8ed" stroke="#99aab5"/><path d="M6.5 8h7M6.5 10.5h7M6.5 13h7M6.5 15.5h4.5" stroke="#99aab5"/>',
  ),
  robot_face: svg(
    '<path d="M10 1.5v2.5" stroke="#66757f" stroke-width="1.4"/><circle cx="10" cy="1.8" r="1.2" fill="#dd2e44"/><rect x="2.5" y="4" width="15" height="13" rx="3" fill="#ccd6dd" stroke="#99aab5"/><circle cx="7" cy="9.5" r="1.8" fill="#292f33"/><circle cx="13" cy="9.5" r="1.8" fill="#292f33"/><rect x="6.5" y="13" width="7" height="1.8" rx=".9" fill="#66757f"/>',
  ),
  bar_chart: svg(
    '<rect x="1.5" y="1.5" width="17" height="17" rx="2" fill="#fff" stroke="#ccd6dd"/><rect x="4" y="10" width="3" height="6" fill="#dd2e44"/><rect x="8.5" y="5" width="3" height="11" fill="#3b88c3"/><rect x="13" y="8" width="3" height="8" fill="#77b255"/>',
  ),
};

/** The topic feature's own line icons; decorative, so hidden from assistive tech. */
const svgProps = {
  viewBox: '0 0 24 24',
  fill: 'none',
  stroke: 'currentColor',
  strokeWidth: 1.8,
  strokeLinecap: 'round',
  strokeLinejoin: 'round',
  'aria-hidden': true,
  focusable: false,
} as const;

export const MoreIcon = () => (
  <svg {...svgProps}>
    <circle cx="12" cy="5.5" r="1.2" fill="currentColor" />
    <circle cx="12" cy="12" r="1.2" fill="currentColor" />
    <circle cx="12" cy="18.5" r="1.2" fill="currentColor" />
  </svg>
);

export const MoveIcon = () => (
  <svg {...svgProps}>
    <path d="M4 12h14M13 6l6 6-6 6" />
  </svg>
);

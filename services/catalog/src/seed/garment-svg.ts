/** A simple garment picture (SVG) in the product's colour, so the demo catalog has real images. */
export type GarmentShape = 'shirt' | 'kurta' | 'dress' | 'trousers' | 'saree' | 'jacket' | 'tshirt';

const PATHS: Record<GarmentShape, string> = {
  tshirt:
    'M120 60 L170 40 Q200 70 230 40 L280 60 L320 120 L280 140 L270 120 L270 330 L130 330 L130 120 L120 140 L80 120 Z',
  shirt:
    'M120 60 L170 40 L200 80 L230 40 L280 60 L320 140 L285 155 L270 130 L270 330 L130 330 L130 130 L115 155 L80 140 Z',
  kurta:
    'M125 55 L175 40 L200 90 L225 40 L275 55 L315 170 L285 180 L272 140 L285 360 L115 360 L128 140 L115 180 L85 170 Z',
  dress: 'M160 40 L185 50 Q200 75 215 50 L240 40 L250 140 L320 350 L80 350 L150 140 Z',
  trousers: 'M135 40 L265 40 L285 350 L215 350 L200 140 L185 350 L115 350 Z',
  saree: 'M150 40 Q200 20 250 40 L300 350 L100 350 Z M150 40 L300 200 L290 240 L140 70 Z',
  jacket:
    'M115 60 L170 40 L200 120 L230 40 L285 60 L325 150 L290 165 L275 135 L275 330 L210 330 L200 130 L190 330 L125 330 L125 135 L110 165 L75 150 Z',
};

const escapeXml = (s: string) =>
  s.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!);

export function garmentSvg(opts: { shape: GarmentShape; fill: string; label: string; background: string }): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 400 400" width="400" height="400" role="img" aria-label="${escapeXml(opts.label)}">
  <rect width="400" height="400" fill="${opts.background}"/>
  <path d="${PATHS[opts.shape]}" fill="${opts.fill}" stroke="rgba(0,0,0,0.35)" stroke-width="4" stroke-linejoin="round"/>
  <text x="200" y="385" font-family="Helvetica, Arial, sans-serif" font-size="20" text-anchor="middle" fill="#333">${escapeXml(opts.label)}</text>
</svg>
`;
}

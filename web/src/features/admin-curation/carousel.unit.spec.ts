import { describe, expect, it } from 'vitest';
import { emptySlide, homepageFormData, slideToForm } from './carousel';

describe('homepageFormData', () => {
  it('sends the carousel as JSON with numeric prices and a file per slide index', () => {
    const first = {
      ...slideToForm({
        name: 'Kurta',
        price: 1299.5,
        image: '/uploads/a.png',
        lining: 'Cotton',
        size: 'M',
        height: '5\'8"',
      }),
    };
    const file = new File(['x'], 'b.png', { type: 'image/png' });
    const second = { ...emptySlide(), name: ' Saree ', price: '2499', file };
    const form = homepageFormData([first, second], [{ kept: true }]);
    expect(JSON.parse(String(form.get('carousel')))).toEqual([
      { name: 'Kurta', price: 1299.5, lining: 'Cotton', size: 'M', height: '5\'8"', image: '/uploads/a.png' },
      { name: 'Saree', price: 2499, lining: '', size: '', height: '', image: '' },
    ]);
    expect(JSON.parse(String(form.get('sections')))).toEqual([{ kept: true }]);
    expect(form.get('image0')).toBeNull();
    expect((form.get('image1') as File).name).toBe('b.png');
  });

  it('leaves sections out when the saved config had none', () => {
    expect(homepageFormData([]).has('sections')).toBe(false);
    expect(String(homepageFormData([]).get('carousel'))).toBe('[]');
  });
});

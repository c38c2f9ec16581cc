import { TestimonialsPage } from '@/features/admin-curation/components/testimonials-page';

export function AdminTestimonialsRoute() {
  return <TestimonialsPage />;
}

export { NotFound as NotFoundRoute } from '@/components/errors/not-found';

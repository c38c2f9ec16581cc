import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

export default defineConfig({
  plugins: [react()],
  resolve: {
    alias: {
      // `@/` points at src/ so shared code is imported by name, not by a chain of ../ (bulletproof-react).
      '@': fileURLToPath(new URL('./src', import.meta.url)),
      // The services' pure contracts (constants and types, no runtime imports), one definition for both sides.
      '@shop/shared/contracts': fileURLToPath(new URL('../services/shared/src/contracts', import.meta.url)),
      // What an admin may pick for a homepage section: the catalog's rule, which the admin form offers.
      '@shop/catalog/home-section-choices': fileURLToPath(
        new URL('../services/catalog/src/home-section/choices.ts', import.meta.url),
      ),
      // India time (its UTC offset), pure too: one definition for the shop's days on both sides.
      '@shop/shared/time': fileURLToPath(new URL('../services/shared/src/time', import.meta.url)),
    },
  },
  server: {
    proxy: {
      '/api': 'http://127.0.0.1:8080',
      '/uploads': 'http://127.0.0.1:8080',
      '/razorpay-sandbox': 'http://127.0.0.1:8080',
    },
  },
  build: { outDir: 'dist', emptyOutDir: true },
});

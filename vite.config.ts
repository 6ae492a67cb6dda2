import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

const proxyTarget = process.env.PARLEY_PROXY_TARGET ?? 'http://127.0.0.1:9991';

export default defineConfig({
  plugins: [react()],
  server: {
    port: 5173,
    proxy: {
      '/api': { target: proxyTarget, changeOrigin: true, secure: false },
      '/static': { target: proxyTarget, changeOrigin: true, secure: false },
      '/user_avatars': { target: proxyTarget, changeOrigin: true, secure: false },
      '/user_uploads': { target: proxyTarget, changeOrigin: true, secure: false },
    },
  },
  build: { outDir: 'dist', sourcemap: true },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'server',
          environment: 'node',
          include: ['server/**/*.test.ts'],
          // inert unless PARLEY_MUTATE is set (npm run mutation)
          setupFiles: ['server/test/mutation-setup.ts'],
          testTimeout: 30000,
          hookTimeout: 60000,
        },
      },
      {
        extends: true,
        test: {
          name: 'client',
          environment: 'jsdom',
          include: ['src/**/*.test.{ts,tsx}'],
        },
      },
    ],
  },
});

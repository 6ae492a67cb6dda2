/**
 * Which image the viewer shows. A click on an image preview asks for it here; the viewer under
 * the message list finds the image among the loaded messages and opens.
 */
import { create } from 'zustand';

export interface ViewerRequest {
  messageId: number;
  /** the preview link's href, as rendered (an upload path or a URL) */
  href: string;
  /** where the focus returns when the viewer closes */
  opener: HTMLElement | null;
}

interface ImageViewerState {
  request: ViewerRequest | null;
  open(request: ViewerRequest): void;
  close(): void;
}

export const useImageViewer = create<ImageViewerState>()((set) => ({
  request: null,
  open: (request) => set({ request }),
  close: () => set({ request: null }),
}));

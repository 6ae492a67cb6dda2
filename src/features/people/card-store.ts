/** Which person's card is open, and the element it belongs to (focus returns there on close). */
import { create } from 'zustand';

interface CardState {
  open: { userId: number; anchor: HTMLElement } | null;
  show(userId: number, anchor: HTMLElement): void;
  close(): void;
}

export const useProfileCard = create<CardState>((set) => ({
  open: null,
  show: (userId, anchor) => set({ open: { userId, anchor } }),
  close: () => set({ open: null }),
}));

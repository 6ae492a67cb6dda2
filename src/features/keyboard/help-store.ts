/** Whether the keyboard shortcut help is open: opened by "?" and by the top bar's button. */
import { create } from 'zustand';

interface ShortcutHelp {
  open: boolean;
  show(): void;
  hide(): void;
  toggle(): void;
}

export const useShortcutHelp = create<ShortcutHelp>()((set) => ({
  open: false,
  show: () => set({ open: true }),
  hide: () => set({ open: false }),
  toggle: () => set((state) => ({ open: !state.open })),
}));

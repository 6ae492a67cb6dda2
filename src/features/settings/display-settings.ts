/**
 * The display preferences that change the whole page, applied as attributes and variables on
 * `<html>` (settings.css reads them): full-width layout, high contrast, and the message font size
 * and line spacing, scaled from the reference app's defaults (14px, 122%) so that the defaults
 * keep Parley's own type scale.
 */
import { useEffect } from 'react';
import { useUserSetting } from '../../model/hooks';

const DEFAULT_FONT_PX = 14;
const DEFAULT_LINE_PERCENT = 122;

export function useDisplaySettings(): void {
  const fluid = useUserSetting('fluid_layout_width');
  const highContrast = useUserSetting('high_contrast_mode');
  const fontPx = useUserSetting('web_font_size_px');
  const linePercent = useUserSetting('web_line_height_percent');
  useEffect(() => {
    const root = document.documentElement;
    root.dataset.fluidLayout = String(Boolean(fluid));
    root.dataset.highContrast = String(Boolean(highContrast));
    root.style.setProperty(
      '--user-font-scale',
      String((fontPx ?? DEFAULT_FONT_PX) / DEFAULT_FONT_PX),
    );
    root.style.setProperty(
      '--user-line-scale',
      String((linePercent ?? DEFAULT_LINE_PERCENT) / DEFAULT_LINE_PERCENT),
    );
    return () => {
      delete root.dataset.fluidLayout;
      delete root.dataset.highContrast;
      root.style.removeProperty('--user-font-scale');
      root.style.removeProperty('--user-line-scale');
    };
  }, [fluid, highContrast, fontPx, linePercent]);
}

/**
 * The favicon with the unread count drawn on it: /favicon.svg painted into a canvas, a badge in
 * its corner, set as a data: URL (the content security policy allows data: images). No count
 * puts the plain icon back.
 */
const PLAIN_ICON = '/favicon.svg';
const SIZE = 64;

let baseIcon: Promise<HTMLImageElement> | null = null;
let latest = 0;

function loadBaseIcon(): Promise<HTMLImageElement> {
  baseIcon ??= new Promise((resolve, reject) => {
    const image = new Image();
    image.onload = () => resolve(image);
    image.onerror = reject;
    image.src = PLAIN_ICON;
  });
  return baseIcon;
}

function iconLink(): HTMLLinkElement {
  let link = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
  if (!link) {
    link = document.createElement('link');
    link.rel = 'icon';
    document.head.append(link);
  }
  return link;
}

export function badgeText(count: number): string {
  return count > 99 ? '99+' : String(count);
}

/**
 * The installed app's badge (the Badging API, where the browser has it): the same count as the
 * tab's icon. A browser without it, or a page not installed, ignores the call.
 */
export function setAppBadge(count: number): void {
  // Not in every browser, whatever the DOM's types say.
  const badging = navigator as Partial<Pick<Navigator, 'setAppBadge' | 'clearAppBadge'>>;
  const done = count > 0 ? badging.setAppBadge?.(count) : badging.clearAppBadge?.();
  void done?.catch(() => {
    // not allowed here (a page that is not installed): the favicon shows the count
  });
}

export function setFaviconCount(count: number): void {
  latest = count;
  setAppBadge(count);
  if (count <= 0) {
    const link = iconLink();
    link.type = 'image/svg+xml';
    link.href = PLAIN_ICON;
    return;
  }
  void loadBaseIcon()
    .then((image) => {
      if (latest !== count) return; // a newer count is on its way
      const canvas = document.createElement('canvas');
      canvas.width = SIZE;
      canvas.height = SIZE;
      const context = canvas.getContext('2d');
      if (!context) return;
      context.drawImage(image, 0, 0, SIZE, SIZE);
      const text = badgeText(count);
      const height = 34;
      const width = Math.max(height, 14 + text.length * 16);
      const x = SIZE - width;
      context.fillStyle = '#d93025';
      context.beginPath();
      context.roundRect(x, 0, width, height, height / 2);
      context.fill();
      context.fillStyle = '#ffffff';
      context.font = `bold ${text.length > 2 ? 22 : 26}px system-ui, sans-serif`;
      context.textAlign = 'center';
      context.textBaseline = 'middle';
      context.fillText(text, x + width / 2, height / 2 + 1);
      const link = iconLink();
      link.type = 'image/png';
      link.href = canvas.toDataURL('image/png');
    })
    .catch(() => {
      // Without the base icon the tab keeps its plain icon; the title still carries the count.
    });
}

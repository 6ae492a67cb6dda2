import { useState } from 'react';

/** A square avatar; falls back to initials on a colour derived from the name when the image fails. */
export function Avatar({
  url,
  name,
  size = 36,
}: {
  url: string | null | undefined;
  name: string;
  size?: number;
}) {
  const [failed, setFailed] = useState(false);
  if (url && !failed) {
    return (
      <img
        className="avatar"
        src={url}
        alt=""
        width={size}
        height={size}
        onError={() => setFailed(true)}
      />
    );
  }
  const initials = name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part[0]!.toUpperCase())
    .join('');
  return (
    <span
      className="avatar avatar-fallback"
      aria-hidden="true"
      style={{ width: size, height: size, fontSize: size * 0.4, background: colourForName(name) }}
    >
      {initials}
    </span>
  );
}

function colourForName(name: string): string {
  let hash = 0;
  for (const char of name) hash = (hash * 31 + char.charCodeAt(0)) | 0;
  return `hsl(${Math.abs(hash) % 360} 45% 45%)`;
}

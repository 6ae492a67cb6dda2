import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { RegisterResponse } from '../../api/model';
import { jitsiCallServer, realmFromSnapshot, reduceRealm } from '../../model/realm';
import { eg } from '../../test/eg';
import { renderCompose } from './render-compose.test-helper';
import { callLinkMarkdown, newCallId } from './call-links';

const PROVIDERS = {
  disabled: { name: 'None', id: 0 },
  jitsi_meet: { name: 'Jitsi Meet', id: 1 },
  zoom: { name: 'Zoom', id: 3 },
};

function registerWith(overrides: Partial<RegisterResponse> = {}): RegisterResponse {
  return eg.registerResponse({
    realm_available_video_chat_providers: PROVIDERS,
    realm_video_chat_provider: 1,
    realm_jitsi_server_url: null,
    server_jitsi_server_url: 'https://meet.jit.si',
    ...overrides,
  });
}

const callServer = (overrides: Partial<RegisterResponse> = {}) =>
  jitsiCallServer(realmFromSnapshot(registerWith(overrides)));

describe('the call server', () => {
  it('is the organization’s Jitsi server, or the server’s default, without a trailing slash', () => {
    expect(callServer()).toBe('https://meet.jit.si');
    expect(callServer({ realm_jitsi_server_url: 'https://meet.example.org/' })).toBe(
      'https://meet.example.org',
    );
    expect(callServer({ server_jitsi_server_url: 'https://jitsi.local/' })).toBe(
      'https://jitsi.local',
    );
  });

  it('is none unless the provider is Jitsi Meet', () => {
    expect(callServer({ realm_video_chat_provider: 0 })).toBeNull();
    expect(callServer({ realm_video_chat_provider: 3 })).toBeNull();
    expect(callServer({ server_jitsi_server_url: null })).toBeNull();
    const realm = realmFromSnapshot(registerWith());
    const off = reduceRealm(realm, {
      id: 1,
      type: 'realm',
      op: 'update',
      property: 'video_chat_provider',
      value: 0,
    });
    expect(jitsiCallServer(off)).toBeNull();
  });
});

describe('call links', () => {
  it('name a meeting by fifteen random digits', () => {
    expect(newCallId(() => 0)).toBe('100000000000000');
    expect(newCallId(() => 0.999999999999)).toMatch(/^9\d{14}$/);
    expect(newCallId()).toMatch(/^[1-9]\d{14}$/);
  });

  it('start a voice call with the camera off', () => {
    expect(callLinkMarkdown('video', 'https://meet.jit.si/', 'Join video call.', '123')).toBe(
      '[Join video call.](https://meet.jit.si/123)',
    );
    expect(callLinkMarkdown('voice', 'https://meet.jit.si', 'Join voice call.', '123')).toBe(
      '[Join voice call.](https://meet.jit.si/123#config.startWithVideoMuted=true)',
    );
  });
});

describe('the compose box’s call buttons', () => {
  it('put a video call link at the cursor', () => {
    const field = renderCompose(registerWith({ realm_jitsi_server_url: 'https://meet.example/' }));
    fireEvent.change(field, { target: { value: 'Call? Now.' } });
    field.setSelectionRange(5, 5);
    fireEvent.click(screen.getByRole('button', { name: 'Add video call' }));
    expect(field.value).toMatch(
      /^Call\? \[Join video call\.\]\(https:\/\/meet\.example\/[1-9]\d{14}\) Now\.$/,
    );
  });

  it('put a voice call link that starts with the camera off', () => {
    const field = renderCompose(registerWith());
    fireEvent.click(screen.getByRole('button', { name: 'Add voice call' }));
    expect(field.value).toMatch(
      /^\[Join voice call\.\]\(https:\/\/meet\.jit\.si\/[1-9]\d{14}#config\.startWithVideoMuted=true\) $/,
    );
  });

  it('are not offered when the organization has no Jitsi calls', () => {
    renderCompose(registerWith({ realm_video_chat_provider: 0 }));
    expect(screen.queryByRole('button', { name: 'Add video call' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Add voice call' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Add emoji' })).toBeTruthy();
  });
});

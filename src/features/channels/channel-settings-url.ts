import { viewToUrl } from '../../narrow';

/** The tabs of a channel's settings page, in the order they are shown. */
export const CHANNEL_SETTINGS_TABS = ['personal', 'general', 'subscribers'] as const;
export type ChannelSettingsTab = (typeof CHANNEL_SETTINGS_TABS)[number];

/**
 * The address of a channel's settings. Kept apart from the page itself, so that the menus and
 * lists that link to it do not pull the page's code into the first view.
 */
export const channelSettingsUrl = (streamId: number, tab: ChannelSettingsTab = 'general') =>
  viewToUrl('channels', [streamId, tab]);

import type { ApiNarrow } from '../api/model';
import type { Narrow } from './narrow';

/** The `narrow` parameter of GET /messages for a narrow. */
export function toApiNarrow(narrow: Narrow): ApiNarrow {
  switch (narrow.kind) {
    case 'feed':
      return [];
    case 'stream':
      return [{ operator: 'channel', operand: narrow.streamId }];
    case 'topic':
      return [
        { operator: 'channel', operand: narrow.streamId },
        { operator: 'topic', operand: narrow.topic },
      ];
    case 'dm':
      return [{ operator: 'dm', operand: narrow.userIds }];
    case 'starred':
      return [{ operator: 'is', operand: 'starred' }];
    case 'mentions':
      return [{ operator: 'is', operand: 'mentioned' }];
    case 'search':
      return [{ operator: 'search', operand: narrow.query }];
  }
}

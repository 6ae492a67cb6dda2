import { configure } from '@testing-library/dom';
// Components under test read their strings through i18next, in English as a new browser would.
import '../i18n';

// On a loaded two-core machine (CI runs the server tests beside these) a render can take more
// than Testing Library's default second to show; waiting longer only slows a failing test.
configure({ asyncUtilTimeout: 10_000 });

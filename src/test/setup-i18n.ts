// Components under test read their strings through i18next, in English as a new browser would.
import '../i18n';

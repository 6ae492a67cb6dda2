/** Profile cards, profiles and one's own profile settings. */
export { PersonTrigger } from './PersonTrigger';
export { PersonRow } from './PersonRow';
export { ProfileCardLayer } from './ProfileCard';
export { ProfileView } from './ProfileView';
export { ProfileSettings } from './ProfileSettings';

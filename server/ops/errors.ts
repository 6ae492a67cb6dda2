/**
 * The command line or what it names is wrong (an unknown organization, a password the server
 * would refuse, a file that is not a Parley backup): management commands exit with status 2.
 * Any other failure exits with 1.
 */
export class UsageError extends Error {}

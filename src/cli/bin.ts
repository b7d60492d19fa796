// The entry of dist/cli.js (the package's `bin`): runs the command line and sets the exit status.
import { main } from './main';

void main();

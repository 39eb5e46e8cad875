// `node --import` entry for processes tests start: the same fence as the test process itself.
import { installFence } from './fence.ts';

installFence();

// The browser controller of Ice Dao: the sliding games' controller
// (games/sliding/browser.js), whose pieces are stacks of pyramids here.
import {sliding} from '../sliding/browser.js';

export default function controller(kit) {
  return sliding(kit, 'stack');
}

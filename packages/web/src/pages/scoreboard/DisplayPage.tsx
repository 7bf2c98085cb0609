import { DisplayPage } from './Boards';
export default DisplayPage;

import { ScoreboardPage } from './Boards';
export default ScoreboardPage;

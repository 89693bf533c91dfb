/**
 * The API's answers as the member app reads them: the types of the backend's own response
 * schemas (valibot InferOutput), imported as types only, so nothing of shared/ reaches the bundle.
 */
import type { InferOutput } from 'valibot';
import type { ChallengeListItem, ChallengePageSchema, ParticipationView, RewardBadge } from '../../shared/challenges/model';
import type {
  Achievements,
  EarnedBadge,
  LeaderboardPage,
  LeaderboardRow,
  ShooterLink,
  ShooterLinkListSchema,
  ClubShooterLinkListSchema,
  SharingPreferencesSchema,
  PersonalizeResponseSchema,
  LadderPage,
  BadgePreferences,
  MemberBadges,
} from '../../shared/challenges/responses';
import type { Tier } from '../../shared/challenges/tiers';
import type { InboxPage, NotificationRecord, UserSettings } from '../../shared/notifications/responses';
import type { NotificationPreferences } from '../../shared/notifications/preferences';
import type { OwnClubs } from '../../shared/clubs/responses';

export type {
  Achievements,
  BadgePreferences,
  LadderPage,
  ChallengeListItem,
  EarnedBadge,
  InboxPage,
  LeaderboardPage,
  LeaderboardRow,
  MemberBadges,
  NotificationPreferences,
  NotificationRecord,
  ParticipationView,
  RewardBadge,
  ShooterLink,
  Tier,
  UserSettings,
};

export type ChallengePage = InferOutput<typeof ChallengePageSchema>;
export type ShooterLinkList = InferOutput<typeof ShooterLinkListSchema>;
export type ClubShooterLinkList = InferOutput<typeof ClubShooterLinkListSchema>;
export type SharingPreferences = InferOutput<typeof SharingPreferencesSchema>;
export type PersonalizeResult = InferOutput<typeof PersonalizeResponseSchema>;

export type MyClubs = OwnClubs;

export type { Invitation, InvitationPage, MemberPage, Membership, NewInvitation } from '../../shared/clubs/responses';

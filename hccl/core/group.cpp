// acl-cpu HCCL: how the ranks' calls meet (see group.hpp).
#include "core/group.hpp"

#include <algorithm>

#include "core/share_runner.hpp"
#include "core/watchdog.hpp"

namespace aclcpu::hccl::detail {

Rank::Rank(std::shared_ptr<Group> group, uint32_t rank, std::chrono::milliseconds execTimeout,
           std::shared_ptr<NetworkRank> network)
    : group_(std::move(group)),
      rank_(rank),
      execTimeout_(execTimeout),
      sends_(group_->ranks(), 0),
      recvs_(group_->ranks(), 0),
      network_(std::move(network)) {}

uint64_t Rank::next_send(uint32_t peer) {
    const std::lock_guard<std::mutex> lock(transfersMutex_);
    return sends_.at(peer)++;
}

uint64_t Rank::next_recv(uint32_t peer) {
    const std::lock_guard<std::mutex> lock(transfersMutex_);
    return recvs_.at(peer)++;
}

void Rank::note_failure(HcclResult code) noexcept {
    HcclResult none = HCCL_SUCCESS;
    asyncError_.compare_exchange_strong(none, code, std::memory_order_acq_rel);
}

void RankCall::arrive(Gate gate) { rank_->group().arrive(shared_from_this(), std::move(gate)); }

void RankCall::depart(Gate gate) { rank_->group().depart(shared_from_this(), std::move(gate)); }

aclError RankCall::move_shares() {
    for (const Part& part : parts_) {
        // The meeting is settled (the arrival gate opened) and no party
        // changes its arguments until every party has departed.
        if (part.meeting->failure) continue;
        if (aclError status = run_share(api_, share_of(part.meeting->args, part.party)); status != ACL_SUCCESS) {
            return status;
        }
    }
    return ACL_SUCCESS;
}

void Group::arrive(const std::shared_ptr<RankCall>& call, Gate gate) {
    Settlements settlements;
    {
        const std::lock_guard<std::mutex> lock(mutex_);
        const uint64_t generation = call->armings_++;
        call->arrival_ = std::move(gate);
        call->departure_.reset();
        call->failure_.reset();
        call->unsettled_ = call->parts_.size();
        for (Part& part : call->parts_) {
            part.key.generation = generation;
            const MeetingKey& key = part.key;
            part.meeting = meeting_at(key, call->rank().exec_timeout());
            Meeting& meeting = *part.meeting;
            if (meeting.settled) {  // It failed before this party came.
                count_down_arrival(*call, meeting.failure, std::nullopt, settlements);
                continue;
            }
            meeting.calls[part.party] = call;
            meeting.args[part.party] = &part.args;
            ++meeting.arrived;
            if (has_destroyed_party(key, meeting)) {
                settle(meeting, Failure{ACL_ERROR_RT_SUSPECT_REMOTE_ERROR, HCCL_E_REMOTE,
                                        std::string(call->api()) + ": a peer of communicator " + name_ +
                                            " destroyed its communicator before joining"},
                       std::nullopt, settlements);
            } else if (meeting.arrived == part.parties) {
                std::string differs = disagreement(meeting.args);
                std::optional<Failure> failure;
                if (!differs.empty()) {
                    failure = Failure{ACL_ERROR_RT_PARAM_INVALID, HCCL_E_PARA,
                                      std::string(call->api()) + " on communicator " + name_ +
                                          ": the ranks' calls do not match: " + differs};
                }
                settle(meeting, std::move(failure), call->arrival_, settlements);
            }
        }
    }
    apply(settlements);
}

std::shared_ptr<Meeting> Group::meeting_at(const MeetingKey& key, std::chrono::milliseconds timeout) {
    std::shared_ptr<Meeting>& slot = meetings_[key];
    if (!slot) {
        slot = std::make_shared<Meeting>(key.channel == 0 ? ranks_ : 2);
        const Watchdog::Ticket ticket = Watchdog::instance().watch(weak_from_this(), key, Clock::now() + timeout);
        slot->deadline = ticket.deadline;
        slot->watch = ticket.id;
    }
    return slot;
}

void Group::settle(Meeting& meeting, std::optional<Failure> failure, const std::optional<Gate>& by,
                   Settlements& out) {
    meeting.settled = true;
    meeting.failure = std::move(failure);
    Watchdog::instance().cancel(Watchdog::Ticket{meeting.deadline, meeting.watch});
    for (const std::shared_ptr<RankCall>& party : meeting.calls) {
        if (party) count_down_arrival(*party, meeting.failure, by, out);
    }
}

void Group::count_down_arrival(RankCall& call, const std::optional<Failure>& failure, const std::optional<Gate>& by,
                               Settlements& out) {
    if (failure && !call.failure_) call.failure_ = failure;
    if (--call.unsettled_ != 0) return;
    out.push_back(Settlement{*call.arrival_, call.failure_, call.shared_from_this(), by});
}

void Group::depart(const std::shared_ptr<RankCall>& call, Gate gate) {
    Settlements settlements;
    {
        const std::lock_guard<std::mutex> lock(mutex_);
        call->departure_ = std::move(gate);
        call->undeparted_ = call->parts_.size();
        for (Part& part : call->parts_) {
            Meeting& meeting = *part.meeting;
            ++meeting.departed;
            // A failed meeting stays until every party has come, so that a late
            // one fails at once; its parties do not wait for each other.
            if (meeting.failure) {
                if (--call->undeparted_ == 0) {
                    settlements.push_back(Settlement{*call->departure_, std::nullopt, call, std::nullopt});
                }
            } else if (meeting.departed == part.parties) {
                for (const std::shared_ptr<RankCall>& party : meeting.calls) {
                    if (--party->undeparted_ == 0) {
                        settlements.push_back(Settlement{*party->departure_, std::nullopt, party, call->departure_});
                    }
                }
            }
            if (meeting.departed == part.parties || (meeting.failure && abandoned())) forget(part.key);
        }
    }
    apply(settlements);
}

void Group::forget(const MeetingKey& key) {
    const auto found = meetings_.find(key);
    if (found == meetings_.end()) return;
    // The meeting's calls hold it through their parts: dropping its hold on
    // them breaks the cycle.
    found->second->calls.clear();
    found->second->args.clear();
    meetings_.erase(found);
}

void Group::expire(const MeetingKey& key) {
    Settlements settlements;
    {
        const std::lock_guard<std::mutex> lock(mutex_);
        const auto found = meetings_.find(key);
        if (found == meetings_.end() || found->second->settled) return;
        Meeting& meeting = *found->second;
        // A meeting is made by its first party's arrival, so one is there.
        const RankCall& first = **std::find_if(meeting.calls.begin(), meeting.calls.end(),
                                               [](const std::shared_ptr<RankCall>& call) { return call != nullptr; });
        settle(meeting,
               Failure{ACL_ERROR_RT_TASK_TIMEOUT, HCCL_E_TIMEOUT,
                       std::string(first.api()) + " on communicator " + name_ + " timed out after " +
                           std::to_string(first.rank().exec_timeout().count()) + " ms waiting for rank(s) " +
                           missing_ranks(key, meeting)},
               std::nullopt, settlements);
    }
    apply(settlements);
}

void Group::destroy_rank(uint32_t rank) {
    Settlements settlements;
    {
        const std::lock_guard<std::mutex> lock(mutex_);
        destroyed_.at(rank) = true;
        for (auto& [key, meeting] : meetings_) {
            if (meeting->settled || !has_destroyed_party(key, *meeting)) continue;
            settle(*meeting,
                   Failure{ACL_ERROR_RT_SUSPECT_REMOTE_ERROR, HCCL_E_REMOTE,
                           "communicator " + name_ + ": rank " + std::to_string(rank) +
                               " destroyed its communicator with this collective pending"},
                   std::nullopt, settlements);
        }
        // With every rank gone, no party can come to a failed meeting any more.
        if (abandoned()) {
            while (!meetings_.empty()) forget(meetings_.begin()->first);
        }
    }
    apply(settlements);
}

uint32_t Group::rank_of_party(const MeetingKey& key, uint32_t party) const noexcept {
    if (key.channel == 0) return party;
    const uint64_t route = key.channel - 1;  // See transfer_channel.
    return static_cast<uint32_t>(party == 0 ? route / ranks_ : route % ranks_);
}

bool Group::abandoned() const {
    return std::all_of(destroyed_.begin(), destroyed_.end(), [](bool gone) { return gone; });
}

bool Group::has_destroyed_party(const MeetingKey& key, const Meeting& meeting) const {
    for (uint32_t party = 0; party < meeting.calls.size(); ++party) {
        if (destroyed_[rank_of_party(key, party)]) return true;
    }
    return false;
}

std::string Group::missing_ranks(const MeetingKey& key, const Meeting& meeting) const {
    std::string ranks;
    for (uint32_t party = 0; party < meeting.calls.size(); ++party) {
        if (meeting.calls[party]) continue;
        ranks += (ranks.empty() ? "" : ", ") + std::to_string(rank_of_party(key, party));
    }
    return ranks;
}

void Group::apply(Settlements& settlements) {
    for (Settlement& settled : settlements) {
        if (!settled.failure) {
            if (settled.openedBy) {
                settled.gate.open(*settled.openedBy);
            } else {
                settled.gate.open();
            }
            continue;
        }
        settled.call->rank().note_failure(settled.failure->hcclCode);
        settled.gate.fail(settled.failure->streamCode, settled.failure->message);
    }
}

}  // namespace aclcpu::hccl::detail
